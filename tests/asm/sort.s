; Bubble sort of eight words in place, indexing through pointers.
.data xs[8] = 9, -4, 17, 0, -100, 55, 3, 3
.data n = 8
.data i = 0
.data j = 0
.data p = 0
.data q = 0
.data a = 0
.data b = 0
.data d = 0
.data swapped = 0
outer: MOV swapped, i
       SUB swapped, swapped
       MOV j, one
inner: MOV d, j
       SUB d, n
       JZ d, check
       MOV p, j
       DEC p
       MOV q, j
       LOAD a, p
       LOAD b, q
       MOV d, b
       SUB d, a
       CMP d, swap
       INC j
       JMP inner
swap:  STORE b, p
       STORE a, q
       INC swapped
       INC j
       JMP inner
check: JNZ swapped, outer
       HALT
.data one = 1
