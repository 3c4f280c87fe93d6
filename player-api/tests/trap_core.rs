//! The fast core (`Bitboard`, and `TrapState` built on it) equals a plain
//! reference implementation of the rules on thousands of random positions:
//! reachable ones (random games from the start, N = 3..8) and arbitrary ones
//! (random traps and players). The reference below is written the obvious
//! way: a grid of cells, the 8 directions, counts by loops.

use std::collections::BTreeMap;

use player_api::trap::{bitboard, Bitboard, Pos, TrapState, MAX_SIZE, MIN_SIZE};
use player_api::Seat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ------------------------------------------------ the reference rules

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Trap,
    Player,
}

#[derive(Clone, Debug)]
struct Naive {
    n: usize,
    grid: Vec<Vec<Cell>>,
    players: [(usize, usize); 2],
}

const DIRECTIONS: [(i32, i32); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

impl Naive {
    fn of(state: &TrapState) -> Naive {
        let n = state.size() as usize;
        let mut grid = vec![vec![Cell::Empty; n]; n];
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                if state.has_trap(Pos::new(r as u8, c as u8)) {
                    *cell = Cell::Trap;
                }
            }
        }
        let at = |seat| {
            let p = state.position(seat);
            (p.row as usize, p.col as usize)
        };
        let players = [at(Seat::One), at(Seat::Two)];
        for &(r, c) in &players {
            grid[r][c] = Cell::Player;
        }
        Naive { n, grid, players }
    }

    fn neighbours(&self, (r, c): (usize, usize)) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (dr, dc) in DIRECTIONS {
            let (nr, nc) = (r as i32 + dr, c as i32 + dc);
            if nr >= 0 && nc >= 0 && (nr as usize) < self.n && (nc as usize) < self.n {
                out.push((nr as usize, nc as usize));
            }
        }
        out.sort();
        out
    }

    fn free_neighbours(&self, at: (usize, usize)) -> Vec<(usize, usize)> {
        self.neighbours(at).into_iter().filter(|&(r, c)| self.grid[r][c] == Cell::Empty).collect()
    }

    fn moves(&self, seat: usize) -> Vec<(usize, usize)> {
        self.free_neighbours(self.players[seat])
    }

    fn can_move(&self, seat: usize) -> bool {
        !self.moves(seat).is_empty()
    }

    fn step(&mut self, seat: usize, to: (usize, usize)) {
        let (r, c) = self.players[seat];
        self.grid[r][c] = Cell::Empty;
        self.grid[to.0][to.1] = Cell::Player;
        self.players[seat] = to;
    }

    /// Where a throw lands, in units of 1 / (20 x 840) so that every chance
    /// is whole (840 is divisible by every neighbour count 1..8).
    fn landing(&self, seat: usize, target: (usize, usize)) -> BTreeMap<(usize, usize), u64> {
        let (pr, pc) = self.players[seat];
        let d = pr.abs_diff(target.0) + pc.abs_diff(target.1);
        let misses: Vec<_> =
            self.neighbours(target).into_iter().filter(|&(r, c)| self.grid[r][c] != Cell::Player).collect();
        let hit = if misses.is_empty() { 20 } else { 20 - (d.max(1) as u64 - 1).min(20) };
        let mut out = BTreeMap::new();
        out.insert(target, hit * 840);
        for &cell in &misses {
            out.insert(cell, (20 - hit) * 840 / misses.len() as u64);
        }
        out.retain(|_, units| *units > 0);
        out
    }
}

// ------------------------------------------------ conversions

fn pos((r, c): (usize, usize)) -> Pos {
    Pos::new(r as u8, c as u8)
}

fn cells_of(list: &[(usize, usize)]) -> Vec<Pos> {
    list.iter().map(|&rc| pos(rc)).collect()
}

fn squares(bits: u64) -> Vec<Pos> {
    (0..64).filter(|i| bits >> i & 1 == 1).map(|i| Pos::new(i / 8, i % 8)).collect()
}

fn square(p: Pos) -> u32 {
    p.row as u32 * 8 + p.col as u32
}

// ------------------------------------------------ random positions

/// A random game from the start of a `size` board, stopped after a random
/// number of turns or when it ends: every position it passes through.
fn random_game(size: u8, rng: &mut ChaCha8Rng) -> Vec<(TrapState, Seat)> {
    let mut state = TrapState::new(size);
    let mut seat = Seat::One;
    let mut seen = vec![(state, seat)];
    let stop = rng.random_range(1..60);
    for _ in 0..stop {
        let moves: Vec<Pos> = state.legal_moves(seat).collect::<Vec<_>>();
        if moves.is_empty() {
            break;
        }
        state.move_player(seat, moves[rng.random_range(0..moves.len())]);
        if !state.can_move(seat.other()) {
            seen.push((state, seat.other()));
            break;
        }
        let targets: Vec<Pos> = state.free_cells().collect::<Vec<_>>();
        let throw = state.throw(seat, targets[rng.random_range(0..targets.len())]);
        let pick = rng.random_range(0..throw.miss_cells().len().max(1));
        state.place_trap(throw.land(rng.random_range(0..20), pick));
        seat = seat.other();
        seen.push((state, seat));
    }
    seen
}

/// A random position, reachable or not: each cell a trap with a random density.
fn random_position(rng: &mut ChaCha8Rng) -> TrapState {
    let size = rng.random_range(MIN_SIZE..=MAX_SIZE);
    let cell = |rng: &mut ChaCha8Rng| Pos::new(rng.random_range(0..size), rng.random_range(0..size));
    let one = cell(rng);
    let two = loop {
        let c = cell(rng);
        if c != one {
            break c;
        }
    };
    let density = rng.random_range(0.0..0.9);
    let traps: Vec<Pos> = (0..size)
        .flat_map(|r| (0..size).map(move |c| Pos::new(r, c)))
        .filter(|_| rng.random_bool(density))
        .collect();
    TrapState::from_parts(size, [one, two], traps)
}

fn positions() -> Vec<(TrapState, Seat)> {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut all = Vec::new();
    for game in 0..600 {
        let size = MIN_SIZE + (game % (MAX_SIZE - MIN_SIZE + 1) as usize) as u8;
        all.extend(random_game(size, &mut rng));
    }
    for _ in 0..3000 {
        let seat = if rng.random_bool(0.5) { Seat::One } else { Seat::Two };
        all.push((random_position(&mut rng), seat));
    }
    all
}

// ------------------------------------------------ the properties

#[test]
fn there_are_thousands_of_positions_of_every_size_including_ended_games() {
    let all = positions();
    assert!(all.len() > 10_000, "{} positions", all.len());
    for n in MIN_SIZE..=MAX_SIZE {
        assert!(all.iter().filter(|(s, _)| s.size() == n).count() > 500, "few positions of size {n}");
    }
    assert!(all.iter().any(|(s, seat)| !s.can_move(seat.other())), "no position where a game ended");
}

#[test]
fn legal_moves_and_free_neighbours_equal_the_reference() {
    for (state, _) in positions() {
        let naive = Naive::of(&state);
        let board = state.bitboard();
        for seat in Seat::BOTH {
            let expected = cells_of(&naive.moves(seat.index()));
            assert_eq!(state.legal_moves(seat).collect::<Vec<_>>(), expected, "{seat} on\n{state}");
            assert_eq!(squares(board.moves(seat)), expected, "{seat} on\n{state}");
            assert_eq!(board.mobility(seat) as usize, expected.len());
        }
        for r in 0..naive.n {
            for c in 0..naive.n {
                let expected = cells_of(&naive.free_neighbours((r, c)));
                assert_eq!(state.free_neighbours(pos((r, c))).collect::<Vec<_>>(), expected);
                assert_eq!(squares(board.free_neighbours(square(pos((r, c))))), expected);
                assert_eq!(state.free_neighbour_count(pos((r, c))) as usize, expected.len());
            }
        }
    }
}

#[test]
fn every_cell_is_checked_like_the_reference() {
    for (state, _) in positions().into_iter().step_by(7) {
        let naive = Naive::of(&state);
        for seat in Seat::BOTH {
            let moves = cells_of(&naive.moves(seat.index()));
            for r in 0..=MAX_SIZE {
                for c in 0..=MAX_SIZE {
                    let to = Pos::new(r, c);
                    assert_eq!(state.check_move(seat, to).is_ok(), moves.contains(&to), "{seat} to {to}");
                    let on_board = (r as usize) < naive.n && (c as usize) < naive.n;
                    let target_ok = on_board && naive.grid[r as usize][c as usize] != Cell::Player;
                    assert_eq!(state.check_target(to).is_ok(), target_ok, "target {to}");
                }
            }
        }
    }
}

#[test]
fn the_three_end_checks_decide_like_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut decided = [0u32; 3];
    for (state, seat) in positions() {
        let naive = Naive::of(&state);
        // Check 3: the player to move is boxed in.
        assert_eq!(state.can_move(seat), naive.can_move(seat.index()), "check 3 on\n{state}");
        if !naive.can_move(seat.index()) {
            decided[2] += 1;
            continue;
        }
        let moves = naive.moves(seat.index());
        let to = moves[rng.random_range(0..moves.len())];
        let (mut after, mut naive_after) = (state, naive.clone());
        after.move_player(seat, pos(to));
        naive_after.step(seat.index(), to);
        // Check 1: the move alone traps the opponent.
        let trapped = !naive_after.can_move(seat.other().index());
        assert_eq!(!after.can_move(seat.other()), trapped, "check 1 on\n{after}");
        assert_eq!(!after.bitboard().can_move(seat.other()), trapped);
        if trapped {
            decided[0] += 1;
            continue;
        }
        // Check 2: the trap traps the opponent, wherever it lands.
        let targets: Vec<Pos> = after.free_cells().collect::<Vec<_>>();
        let throw = after.throw(seat, targets[rng.random_range(0..targets.len())]);
        for (cell, _) in throw.outcomes() {
            let mut landed = after;
            landed.place_trap(cell);
            let mut naive_landed = naive_after.clone();
            naive_landed.grid[cell.row as usize][cell.col as usize] = Cell::Trap;
            let trapped = !naive_landed.can_move(seat.other().index());
            assert_eq!(!landed.can_move(seat.other()), trapped, "check 2 on\n{landed}");
            decided[1] += u32::from(trapped);
        }
    }
    assert!(decided.iter().all(|&n| n > 0), "every end check fires somewhere: {decided:?}");
}

#[test]
fn throw_distributions_equal_the_reference() {
    const UNIT: f64 = 20.0 * 840.0;
    for (state, seat) in positions().into_iter().step_by(3) {
        let naive = Naive::of(&state);
        let board = state.bitboard();
        for target in state.free_cells().chain(state.traps()) {
            let expected = naive.landing(seat.index(), (target.row as usize, target.col as usize));
            let throw = state.throw(seat, target);
            let mut actual = BTreeMap::new();
            for (cell, chance) in throw.outcomes() {
                actual.insert((cell.row as usize, cell.col as usize), chance);
            }
            actual.retain(|_, chance| *chance > 0.0);
            assert_eq!(actual.keys().collect::<Vec<_>>(), expected.keys().collect::<Vec<_>>(), "{target}");
            for (cell, units) in &expected {
                assert!((actual[cell] - *units as f64 / UNIT).abs() < 1e-12, "{target} -> {cell:?}");
            }
            let landing = board.throw(seat, square(target));
            assert_eq!(landing.hit_twentieths, throw.hit_twentieths());
            assert_eq!(squares(landing.misses), throw.miss_cells().collect::<Vec<_>>());
            // Every pair of draws lands where the readable API says it does.
            for roll in 0..20 {
                for pick in 0..landing.misses.count_ones().max(1) {
                    let cell = throw.land(roll, pick);
                    assert_eq!(landing.land(roll, pick), square(cell));
                }
            }
        }
    }
}

#[test]
fn make_and_unmake_restore_the_position_and_agree_with_copying() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (state, seat) in positions() {
        let start = state.bitboard();
        assert_eq!(TrapState::from(&start), state, "the conversion round-trips");
        let mut board = start;
        let moves = board.moves(seat);
        if moves == 0 {
            continue;
        }
        let to = bitboard::nth_square(moves, rng.random_range(0..moves.count_ones())).unwrap();
        let from = board.step(seat, to);
        let mut copied = state;
        copied.move_player(seat, Pos::new((to / 8) as u8, (to % 8) as u8));
        assert_eq!(board, copied.bitboard());
        let target = bitboard::nth_square(board.free(), 0);
        if let Some(target) = target {
            assert!(board.trap(target));
            copied.place_trap(Pos::new((target / 8) as u8, (target % 8) as u8));
            assert_eq!(board, copied.bitboard());
            board.untrap(target);
        }
        board.unstep(seat, from);
        assert_eq!(board, start);
    }
}

#[test]
fn a_trap_on_a_trap_is_not_new_and_leaves_the_board_as_it_was() {
    let state = TrapState::from_parts(5, [Pos::new(0, 0), Pos::new(4, 4)], [Pos::new(2, 2)]);
    let mut board = state.bitboard();
    assert!(!board.trap(square(Pos::new(2, 2))));
    assert_eq!(board, state.bitboard());
    assert_eq!(Bitboard::new(5), TrapState::new(5).bitboard());
}
