; Nested loops over the arithmetic: multiplication by MULACC, shifts,
; bitwise mixing and SUBLEQ countdowns.
.data x = 13
.data y = 11
.data prod = 0
.data k = 0
.data eight = 8
.data acc = 0
.data mix = 90
.data rounds = 12
.data one = 1
round: MOV prod, x
       MOV k, eight
mul:   MULACC prod, y
       DEC k
       JNZ k, mul
       ADD acc, prod
       XOR mix, acc
       SHR mix
       OR mix, x
       AND mix, y
       SHL x
       INC y
       CMOV x, y
       SWAP x, y
       SUBLEQ one, rounds, done
       JMP round
done:  HALT
