//! What a wanderer remembers of the current forest.

use player_api::magic_forest::{ActionKind, Area, ForestAction, ForestRequest};

#[derive(Clone, Debug, Default)]
pub(crate) struct Memory {
    pub forest: u8,
    pub size: u8,
    pub visited: Area,
    pub bones: Area,
    pub no_bones: Area,
    pub leaves: Area,
    pub no_leaves: Area,
    /// Tiles a stone was thrown at (a monster there is dead).
    pub stoned: Area,
    /// Tiles the wanderer died on before any stone: a live monster or a trap.
    pub died_unstoned: Area,
    /// Tiles the wanderer died on after a stone: a trap.
    pub died_stoned: Area,
    last: Option<(ForestRequest, ForestAction)>,
}

impl Memory {
    /// Takes in one step's request; true when the tile is seen for the first time.
    pub fn observe(&mut self, req: &ForestRequest) -> bool {
        let new_forest = self.size == 0 || req.forest != self.forest;
        if new_forest {
            *self = Memory { forest: req.forest, size: req.size, ..Memory::default() };
        } else if let Some((before, action)) = self.last {
            if let Some(target) = before.at.step(action.dir, self.size) {
                match action.kind {
                    ActionKind::Throw => self.stoned.insert(target),
                    ActionKind::Move if req.died => {
                        if self.stoned.contains(target) {
                            self.died_stoned.insert(target);
                        } else {
                            self.died_unstoned.insert(target);
                        }
                    }
                    ActionKind::Move => {}
                }
            }
        }
        let first_visit = !self.visited.contains(req.at);
        let here = Area::from_iter([req.at]);
        self.visited = self.visited.union(here);
        (self.bones, self.no_bones) = sort(self.bones, self.no_bones, here, req.bones);
        (self.leaves, self.no_leaves) = sort(self.leaves, self.no_leaves, here, req.leaves);
        first_visit
    }

    /// Remembers the action about to be sent.
    pub fn acted(&mut self, req: &ForestRequest, action: ForestAction) {
        self.last = Some((*req, action));
    }

    /// Tiles never stood on.
    pub fn unknown(&self) -> Area {
        Area::grid(self.size).minus(self.visited)
    }

    /// Every tile next to one of `tiles`.
    pub fn near(&self, tiles: Area) -> Area {
        tiles.squares().fold(Area::EMPTY, |acc, t| acc.union(t.neighbours(self.size)))
    }
}

fn sort(yes: Area, no: Area, here: Area, flag: bool) -> (Area, Area) {
    if flag {
        (yes.union(here), no.minus(here))
    } else {
        (yes.minus(here), no.union(here))
    }
}
