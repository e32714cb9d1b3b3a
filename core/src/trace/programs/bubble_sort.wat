;; Bubble sort: n words of a linear congruential sequence (negative ones
;; too) stored in memory, sorted in place with signed comparisons. Returns the
;; smallest, the largest, and 1 if every neighbouring pair is in order.
(module
  (memory 1)
  (global $n i32 (i32.const 32)) ;; n
  (func $at (param $i i32) (result i32)
    (i32.shl (local.get $i) (i32.const 2)))
  (func (export "main") (result i32 i32 i32)
    (local $i i32) (local $j i32) (local $x i32) (local $a i32) (local $b i32) (local $sorted i32)
    (local.set $x (i32.const 12345))
    (loop $fill
      (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 1103515245)) (i32.const 12345)))
      (i32.store (call $at (local.get $i)) (local.get $x))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $fill (i32.lt_u (local.get $i) (global.get $n))))
    (local.set $i (i32.const 0))
    (loop $pass
      (local.set $j (i32.const 0))
      (loop $swap
        (local.set $a (i32.load (call $at (local.get $j))))
        (local.set $b (i32.load offset=4 (call $at (local.get $j))))
        (if (i32.gt_s (local.get $a) (local.get $b))
          (then
            (i32.store (call $at (local.get $j)) (local.get $b))
            (i32.store offset=4 (call $at (local.get $j)) (local.get $a))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br_if $swap (i32.lt_u (local.get $j) (i32.sub (i32.sub (global.get $n) (local.get $i)) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $pass (i32.lt_u (local.get $i) (i32.sub (global.get $n) (i32.const 1)))))
    (local.set $sorted (i32.const 1))
    (local.set $j (i32.const 0))
    (loop $check
      (if (i32.gt_s (i32.load (call $at (local.get $j))) (i32.load offset=4 (call $at (local.get $j))))
        (then (local.set $sorted (i32.const 0))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br_if $check (i32.lt_u (local.get $j) (i32.sub (global.get $n) (i32.const 1)))))
    (i32.load (i32.const 0))
    (i32.load (call $at (i32.sub (global.get $n) (i32.const 1))))
    local.get $sorted))
