;; Collatz: how many steps n takes to reach 1 (n -> n/2 or 3n + 1).
(module
  (global $n i32 (i32.const 27)) ;; n
  (func $steps (param $n i32) (result i32)
    (local $count i32)
    (block $done
      (loop $next
        (br_if $done (i32.eq (local.get $n) (i32.const 1)))
        (if (i32.and (local.get $n) (i32.const 1))
          (then (local.set $n (i32.add (i32.mul (local.get $n) (i32.const 3)) (i32.const 1))))
          (else (local.set $n (i32.shr_u (local.get $n) (i32.const 1)))))
        (local.set $count (i32.add (local.get $count) (i32.const 1)))
        (br $next)))
    local.get $count)
  (func (export "main") (result i32)
    (call $steps (global.get $n))))
