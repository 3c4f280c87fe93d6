//! The rules core, operation by operation (docs/benchmarks.md):
//! `cargo bench -p player-api --bench trap_core`.
//!
//! A midgame 7x7 position; each figure is one call (or one make + unmake).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use player_api::trap::{Pos, TrapState};
use player_api::Seat;

fn midgame() -> TrapState {
    let traps =
        [(1, 2), (1, 5), (2, 1), (2, 3), (2, 4), (3, 0), (3, 5), (4, 2), (4, 4), (5, 1), (5, 3), (5, 5)];
    TrapState::from_parts(7, [Pos::new(3, 3), Pos::new(4, 1)], traps.map(|(r, c)| Pos::new(r, c)))
}

fn rules(c: &mut Criterion) {
    let state = midgame();
    let board = state.bitboard();
    let step = board.moves(Seat::One).trailing_zeros();
    let target = board.moves(Seat::Two).trailing_zeros();

    c.bench_function("bitboard: legal moves (mask)", |b| b.iter(|| black_box(&board).moves(Seat::One)));
    c.bench_function("bitboard: mobility (popcount)", |b| b.iter(|| black_box(&board).mobility(Seat::Two)));
    c.bench_function("bitboard: step + unstep", |b| {
        let mut board = board;
        b.iter(|| {
            let from = black_box(&mut board).step(Seat::One, black_box(step));
            board.unstep(Seat::One, from);
        })
    });
    c.bench_function("bitboard: trap + untrap", |b| {
        let mut board = board;
        b.iter(|| {
            if black_box(&mut board).trap(black_box(target)) {
                board.untrap(target);
            }
        })
    });
    c.bench_function("bitboard: copy-make (step + trap on a copy)", |b| {
        b.iter(|| {
            let mut child = *black_box(&board);
            child.step(Seat::One, step);
            child.trap(target);
            child
        })
    });
    c.bench_function("bitboard: throw distribution", |b| {
        b.iter(|| black_box(&board).throw(Seat::One, target))
    });
    c.bench_function("TrapState: legal_moves, collected", |b| {
        b.iter(|| black_box(&state).legal_moves(Seat::One).fold(0u32, |n, p| n + u32::from(p.row)))
    });
    c.bench_function("TrapState: free_neighbour_count", |b| {
        b.iter(|| black_box(&state).free_neighbour_count(Pos::new(3, 3)))
    });
    c.bench_function("TrapState: move_player + place_trap on a copy", |b| {
        b.iter(|| {
            let mut child = *black_box(&state);
            child.move_player(Seat::One, Pos::new(2, 2));
            child.place_trap(Pos::new(5, 0));
            child
        })
    });
}

criterion_group!(benches, rules);
criterion_main!(benches);
