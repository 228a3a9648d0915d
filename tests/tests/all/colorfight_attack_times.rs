//! Every row of `golden/colorfight/attack-times.csv` (the reference server's formula in double
//! precision) gives exactly the engine's duration in ticks.

use arena_core::games::colorfight::timing::{attack_ticks, Num};
use arena_core::games::colorfight::Variant;

#[test]
fn every_golden_attack_time_matches() {
    let path = arena_tests::golden("colorfight").join("attack-times.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("owned,age_ticks,adjacent,energy,seconds,ticks")
    );
    let mut rows = 0;
    let mut wrong = Vec::new();
    for (n, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 6, "line {}: {line}", n + 2);
        let owned = f[0] == "1";
        let age: u32 = f[1].parse().unwrap();
        let adjacent: u8 = f[2].parse().unwrap();
        let energy: Num = f[3].parse().unwrap();
        let expected: u32 = f[5].parse().unwrap();
        let got = attack_ticks(Variant::Conquest, owned, age, adjacent, energy);
        if got != expected {
            wrong.push(format!("line {}: {line}: got {got}", n + 2));
        }
        rows += 1;
    }
    assert!(rows > 7000, "only {rows} rows read");
    assert!(
        wrong.is_empty(),
        "{} of {rows} rows differ:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
}
