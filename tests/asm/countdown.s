; Sum 1..n by counting down.
.data n = 10
.data sum = 0
.data xs[4] = 3, -1, 2
loop: ADD sum, n
      DEC n
      JNZ n, loop
      MOV xs[3], sum
      HALT
