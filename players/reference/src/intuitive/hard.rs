use player_api::intuitive::{Cell, IntuitiveGameInfo, IntuitivePlayer, IntuitiveRequest, IntuitiveView};

use super::belief::{posterior, Posterior};

/// Hard: exact Bayesian, greedy. It counts every world consistent with what
/// it has seen and opens the closed cell least likely to hold a pit (a
/// provably safe one when there is one); ties go to the cell most likely to
/// hold the monster, then to the first in row-major order.
#[derive(Default)]
pub struct Hard;

impl IntuitivePlayer for Hard {
    fn new_game(&mut self, _info: &IntuitiveGameInfo) {}

    fn reveal(&mut self, req: &IntuitiveRequest) -> Cell {
        let view = &req.view;
        Cell::from_index(safest(view, &posterior(view, false)), view.size())
    }
}

/// Hard's choice in `view`, whose posterior is `post`: the closed cell least
/// likely to hold a pit, then the monster, then the first.
pub(super) fn safest(view: &IntuitiveView, post: &Posterior) -> u8 {
    view.closed()
        .min_by_key(|&c| (post.pit[c as usize], post.monster[c as usize]))
        .expect("the arena only asks while a cell is closed")
}
