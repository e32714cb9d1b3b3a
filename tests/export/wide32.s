; 32-bit words for the export check: carries and borrows across the
; subtractor's 16-bit limbs, the word's ends, a product step, and LOAD,
; STORE and FIND of words wider than 16 bits, and DIVSUB (compared in two
; 16-bit limbs), DROL and MULSTEP on 32-bit words.
.data a = 65535
.data one = 1
.data lo = -2147483648
.data d = 123456789
.data p = 3              ; d's slot
.data v = 0
.data w = 0
.data far @ 100 = -65536
.data q = -65536
.data r = 123456789
.data s = 305419896
.data t = 305419895
       ADD a, one        ; 65536: the carry crosses the limbs
       SUB lo, one       ; 2147483647: the borrow crosses both
       INC a
       DEC a
       SHL d
       MULACC d, one
       FIND v, d         ; v = 3
       LOAD w, p         ; w = d
       SUB w, far
       STORE w, v
       DIVSUB q, r       ; u(q) ≥ u(r): q − r + 2^31
       DIVSUB r, q       ; u(r) < u(q): unchanged
       DIVSUB t, s       ; equal high limbs, the low one smaller: unchanged
       DIVSUB s, t       ; equal high limbs, the low one larger: subtracts
       DROL q, r
       MULSTEP w, lo     ; the multiplier is lo's partner d
       MULSTEP a, far    ; the multiplier is far's partner q
       CMP far, end
       HALT
end:   XOR a, lo
       HALT
