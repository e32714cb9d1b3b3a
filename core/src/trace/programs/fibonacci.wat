;; Fibonacci: F(n) mod 2^32, iteratively (F(0) = 0, F(1) = 1).
(module
  (global $n i32 (i32.const 30)) ;; n
  (func (export "main") (result i32)
    (local $a i32) (local $b i32) (local $i i32)
    i32.const 1
    local.set $b
    (block $done
      (loop $next
        local.get $i
        global.get $n
        i32.ge_u
        br_if $done
        local.get $b
        local.get $a
        local.get $b
        i32.add
        local.set $b
        local.set $a
        local.get $i
        i32.const 1
        i32.add
        local.set $i
        br $next))
    local.get $a))
