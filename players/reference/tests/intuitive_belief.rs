//! The posterior the Intuitive AI bots reason with, checked against brute
//! force: every placement of the board listed and tested with the rules'
//! own `IntuitiveView::is_consistent`.

use player_api::intuitive::{Cell, Content, IntuitiveGame, IntuitiveView, IntuitiveWorld};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference_bots::intuitive::posterior;

/// Worlds in total, then per cell: pit, monster, gold, hint codes.
type Counts = (u64, Vec<u64>, Vec<u64>, Vec<u64>, Vec<[u64; 8]>);

/// Every world of a 4x4 board with `view`'s start cell, counted per cell
/// the way `Posterior` counts: (total, pit, monster, gold, hint codes).
fn brute_force(view: &IntuitiveView, start: Cell) -> Counts {
    let size = view.size();
    let n = size * size;
    let (mut total, mut pit, mut monster, mut gold, mut hint) =
        (0, vec![0; 16], vec![0; 16], vec![0; 16], vec![[0u64; 8]; 16]);
    for mask in 0u32..1 << n {
        if mask.count_ones() != size as u32 {
            continue;
        }
        let pits: Vec<Cell> =
            (0..n).filter(|i| mask >> i & 1 == 1).map(|i| Cell::from_index(i, size)).collect();
        for g in (0..n).filter(|i| mask >> i & 1 == 0) {
            for m in (0..n).filter(|&i| mask >> i & 1 == 0 && i != g) {
                let Ok(world) = IntuitiveWorld::from_parts(
                    size,
                    &pits,
                    Cell::from_index(g, size),
                    Cell::from_index(m, size),
                    start,
                ) else {
                    continue;
                };
                if !view.is_consistent(&world) {
                    continue;
                }
                total += 1;
                for c in view.closed() {
                    match world.content(c) {
                        Content::Pit => pit[c as usize] += 1,
                        Content::Monster => monster[c as usize] += 1,
                        Content::Gold => gold[c as usize] += 1,
                        Content::Hint(h) => hint[c as usize][h.code() as usize] += 1,
                    }
                }
            }
        }
    }
    (total, pit, monster, gold, hint)
}

#[test]
fn posterior_counts_match_brute_force_on_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..12 {
        let world = IntuitiveWorld::generate(4, &mut rng);
        let mut game = IntuitiveGame::new(world);
        // Open some safe cells (and sometimes the gold) to get a rich view.
        let opens = rng.random_range(0..6);
        for _ in 0..opens {
            let safe: Vec<u8> = game
                .view()
                .closed()
                .filter(|&c| matches!(world.content(c), Content::Hint(_) | Content::Gold))
                .collect();
            let c = safe[rng.random_range(0..safe.len())];
            game.reveal(Cell::from_index(c, 4)).unwrap();
        }
        let view = game.view();
        let post = posterior(view, true);
        let (total, pit, monster, gold, hint) = brute_force(view, Cell::from_index(world.start(), 4));
        assert_eq!(post.total, total, "{view:?}");
        for c in view.closed() {
            let i = c as usize;
            assert_eq!(post.pit[i], pit[i], "pit count of cell {c}");
            assert_eq!(post.monster[i], monster[i], "monster count of cell {c}");
            assert_eq!(post.gold[i], gold[i], "gold count of cell {c}");
            assert_eq!(post.hint[i], hint[i], "hint counts of cell {c}");
        }
    }
}
