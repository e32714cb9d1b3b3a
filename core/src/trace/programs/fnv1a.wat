;; FNV-1a (32-bit) over the bytes 0, 1, ..., n-1, written to memory first and
;; hashed byte by byte: h = (h xor b) * 16777619 mod 2^32 from 2166136261.
;; For n = 32 the hash is 0x0913AD65 = 152284517.
(module
  (memory 1)
  (global $n i32 (i32.const 32)) ;; n
  (func (export "main") (result i32)
    (local $i i32) (local $h i32)
    (block $filled
      (loop $fill
        (br_if $filled (i32.ge_u (local.get $i) (global.get $n)))
        (i32.store8 (local.get $i) (local.get $i))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $fill)))
    (local.set $h (i32.const 0x811C9DC5))
    (local.set $i (i32.const 0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (global.get $n)))
        (local.set $h (i32.mul (i32.xor (local.get $h) (i32.load8_u (local.get $i))) (i32.const 16777619)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    local.get $h))
