; Memory-heavy endless loop (benchmarks): walks a pointer over every slot above its own variables
; (5..159 of a 160-slot memory), reading and incrementing each one, forever;
; benchmarks and lockstep tests give it a step budget.
.data p = 5
.data v = 0
.data start = 5
.data top = -96      ; 160 as an unsigned 8-bit pointer
.data t = 0
loop:  LOAD v, p
       INC v
       STORE v, p
       INC p
       MOV t, p
       SUB t, top
       JNZ t, loop
       MOV p, start
       JMP loop
