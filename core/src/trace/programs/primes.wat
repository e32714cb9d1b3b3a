;; Primes: the sieve of Eratosthenes over bytes of memory (1 = composite);
;; returns how many primes are below n.
(module
  (memory 1)
  (global $n i32 (i32.const 1000)) ;; n
  (func (export "main") (result i32)
    (local $i i32) (local $j i32) (local $count i32)
    (local.set $i (i32.const 2))
    (block $done
      (loop $outer
        (br_if $done (i32.ge_u (local.get $i) (global.get $n)))
        (if (i32.eqz (i32.load8_u (local.get $i)))
          (then
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (local.set $j (i32.mul (local.get $i) (local.get $i)))
            (block $marked
              (loop $mark
                (br_if $marked (i32.ge_u (local.get $j) (global.get $n)))
                (i32.store8 (local.get $j) (i32.const 1))
                (local.set $j (i32.add (local.get $j) (local.get $i)))
                (br $mark)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $outer)))
    local.get $count))
