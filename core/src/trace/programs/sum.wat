;; Sum: 1 + 2 + ... + n, with a counting loop.
(module
  (global $n i32 (i32.const 100)) ;; n
  (func (export "main") (result i32)
    (local $i i32) (local $acc i32)
    (loop $next
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (local.set $acc (i32.add (local.get $acc) (local.get $i)))
      (br_if $next (i32.lt_u (local.get $i) (global.get $n))))
    local.get $acc))
