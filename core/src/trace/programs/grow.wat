;; Grow: the workload whose trace grows in every head's sense. Round i writes
;; byte i of memory (one new hull vertex a round) after reading a
;; pseudo-randomly chosen earlier byte, so reads land anywhere in the hull.
;; `loom trace scaling` measures dot products per lookup on it.
(module
  (memory 64)
  (global $n i32 (i32.const 1000)) ;; n
  (func (export "main") (result i32)
    (local $i i32) (local $x i32) (local $acc i32)
    (local.set $i (i32.const 1))
    (loop $next
      (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 1103515245)) (i32.const 12345)))
      (local.set $acc
        (i32.add (i32.add (local.get $acc) (local.get $i))
          (i32.load8_u (i32.rem_u (i32.shr_u (local.get $x) (i32.const 8)) (local.get $i)))))
      (i32.store8 (local.get $i) (local.get $acc))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $next (i32.lt_u (local.get $i) (global.get $n))))
    local.get $acc))
