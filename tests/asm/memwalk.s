; Walks every memory slot of `compact` (m = 160) through pointers: reads each
; word with LOAD, adds it up, writes it back with STORE; then finds a value.
.data ptr = 0
.data end = -96          ; 160 read as an unsigned 8-bit pointer
.data tmp = 0
.data sum = 0
.data one = 1
.data where = 0
.data marks[8] = 5, -3, 9, 100, -128, 127, 33, 2
.data hi @ 159 = 77
walk:  MOV tmp, ptr
       SUB tmp, end
       JZ tmp, found
       LOAD tmp, ptr
       ADD sum, tmp
       STORE tmp, ptr
       INC ptr
       JMP walk
found: FIND where, hi
       HALT
