//! The two head implementations give the same answers — the same winning key
//! with the same exact score — on random interleaved writes and reads, and
//! both are right (a plain map says what each read must return). Addresses
//! come from distributions that stress the scores: few addresses written many
//! times (stale keys), the whole u32 range, and clusters around the addresses
//! where float keys collide (4096, 2²⁰, 2³¹−1, 2³²−1). Sequence numbers
//! start anywhere up to the largest the machine allows.
//!
//! `LOOM_TRACE_HEAD_OPS=N` sets the number of writes and reads (CI: 200,000;
//! the manual's figure, `docs/src/trace-machine.md`, is from a run of 1,000,000).

mod trace_common;

use loom_core::trace::head::{Head, HeadMode};
use loom_core::trace::score::{Query, MAX_SEQ};
use std::collections::HashMap;
use trace_common::Rng;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

const HOT: [u32; 8] = [0, 4095, 4096, 4097, 1 << 20, (1 << 31) - 1, 1 << 31, u32::MAX];

fn address(rng: &mut Rng, kind: u64) -> u32 {
    match kind {
        0 => rng.below(16) as u32,
        1 => rng.next() as u32,
        2 => rng.pick(&HOT).wrapping_add(rng.below(7) as u32).wrapping_sub(3),
        _ => {
            let k = rng.below(3);
            address(rng, k)
        }
    }
}

#[test]
fn brute_and_hull_agree_on_interleaved_writes_and_reads() {
    let total = env("LOOM_TRACE_HEAD_OPS", 200_000);
    let mut rng = Rng::new(2024);
    let (mut ops, mut reads, mut hits, mut heads) = (0u64, 0u64, 0u64, 0u64);
    while ops < total {
        // Heads of 1 to 4096 operations, so brute force stays affordable.
        let len = 1u64 << rng.below(13);
        let kind = rng.below(4);
        let mut seq = if rng.chance(20) { MAX_SEQ - len } else { rng.below(1 << 20) };
        let mut head = Head::new(HeadMode::Both);
        let mut model: HashMap<u32, u32> = HashMap::new();
        for _ in 0..len {
            let addr = address(&mut rng, kind);
            if rng.chance(50) {
                let value = rng.next() as u32;
                head.write(addr, seq, value);
                model.insert(addr, value);
                seq += 1;
            } else {
                let found = head.read(addr).unwrap_or_else(|d| panic!("heads disagree: {d:?}"));
                let got = found.filter(|f| f.hits(&Query::new(addr))).map(|f| f.value);
                assert_eq!(got, model.get(&addr).copied(), "read of {addr}");
                reads += 1;
                hits += u64::from(got.is_some());
            }
        }
        ops += len;
        heads += 1;
    }
    eprintln!("{ops} writes and reads over {heads} heads: {reads} reads ({hits} hits), brute ≡ hull ≡ map");
}

/// The hull's lookups cost O(log n) dot products however the addresses
/// arrive — sorted order is the worst case of an unbalanced search tree.
#[test]
fn hull_lookups_cost_logarithmic_dot_products() {
    let mut rng = Rng::new(5);
    for (name, n) in [("sorted", 1u32 << 16), ("random", 1 << 16)] {
        let mut head = Head::new(HeadMode::Hull);
        let addrs: Vec<u32> = (0..n).map(|i| if name == "sorted" { i } else { rng.next() as u32 }).collect();
        for (i, &addr) in addrs.iter().enumerate() {
            head.write(addr, i as u64, addr);
        }
        let (lookups, mut worst) = (2000u64, 0u64);
        let before = head.stats().hull_dots;
        for _ in 0..lookups {
            let d0 = head.stats().hull_dots;
            head.read(*rng.pick(&addrs)).unwrap();
            worst = worst.max(head.stats().hull_dots - d0);
        }
        let mean = (head.stats().hull_dots - before) as f64 / lookups as f64;
        let log = f64::from(n).log2();
        eprintln!("{name}: {n} vertices, {mean:.1} dot products per lookup on average, {worst} at most");
        assert!(mean <= 2.5 * log && (worst as f64) <= 5.0 * log, "{name}: mean {mean}, worst {worst}");
    }
}
