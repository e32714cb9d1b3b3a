;; Countdown: from n down to 0, five instructions a round. Leaves 0.
(module
  (global $n i32 (i32.const 10)) ;; n
  (func (export "main") (result i32)
    (local $i i32)
    global.get $n
    local.set $i
    (loop $again
      local.get $i
      i32.const 1
      i32.sub
      local.tee $i
      br_if $again)
    local.get $i))
