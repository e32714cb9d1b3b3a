; LOAD and STORE far up memory (the published transformer reaches only slots
; 0..31): copies six words from slots 150..155 down to 120..125 through
; pointers (150 and up read as negative 8-bit words: pointers are unsigned),
; swaps the two ends, then FINDs the value only slot 159 holds.
.data src = -106         ; 150
.data dst = 120
.data n = 6
.data t = 0
.data at = 0
.data words[6] @ 150 = 11, -22, 33, -44, 55, 66
.data copy[6] @ 120
.data last @ 159 = 99
loop:  LOAD t, src
       STORE t, dst
       INC src
       INC dst
       DEC n
       JNZ n, loop
       SWAP copy, copy[5]
       MOV t, copy
       STORE t, src          ; src is 156 now
       FIND at, last         ; at = 159
       HALT
