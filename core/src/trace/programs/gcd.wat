;; GCD: Euclid's algorithm as a recursive function (calls, returns, the
;; call-frame head). Two results: gcd(1071, 462) and gcd(F(30), F(29)), whose
;; remainders run down the Fibonacci numbers (the deepest recursion for their size).
(module
  (func $gcd (param $a i32) (param $b i32) (result i32)
    (if (result i32) (i32.eqz (local.get $b))
      (then (local.get $a))
      (else (call $gcd (local.get $b) (i32.rem_u (local.get $a) (local.get $b))))))
  (func (export "main") (result i32 i32)
    (call $gcd (i32.const 1071) (i32.const 462))
    (call $gcd (i32.const 832040) (i32.const 514229))))
