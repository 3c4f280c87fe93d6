//! What an agent has learnt about its cave, and the exact posterior it implies.

use player_api::wumpus::{
    Area, Coord, Dir, WumpusAction, WumpusConfig, WumpusPlacement, WumpusRequest, WumpusWorld,
};

use crate::frontier::Frontier;

/// Below this, a chance counts as zero (floating-point dust from enumeration).
pub(crate) const ZERO: f64 = 1e-9;

/// Everything the agent has sensed, kept as sets of squares.
#[derive(Clone, Debug)]
pub(crate) struct Knowledge {
    config: WumpusConfig,
    pub visited: Area,
    /// Found by bumping into them.
    pub obstacles: Area,
    breezy: Area,
    calm: Area,
    /// Visited squares where a stench was sensed after the last kill (an
    /// older stench may have come from the wumpus since killed).
    smelly: Area,
    /// Visited squares where no stench was sensed (stays true: kills only remove wumpuses).
    fresh: Area,
    /// Squares an arrow proved to hold no live wumpus.
    no_wumpus: Area,
    /// `WumpusPlacement::One` and the scream was heard: no live wumpus is left.
    wumpus_dead: bool,
    last: Option<(WumpusRequest, WumpusAction)>,
}

/// The posterior: per square, the chance of a pit and of a live wumpus.
pub(crate) struct Beliefs {
    pit: [f64; 64],
    wumpus: [f64; 64],
    exclusive: bool,
}

impl Beliefs {
    pub fn pit(&self, s: Coord) -> f64 {
        self.pit[s.index() as usize]
    }

    pub fn wumpus(&self, s: Coord) -> f64 {
        self.wumpus[s.index() as usize]
    }

    /// The chance that walking onto `s` kills.
    pub fn risk(&self, s: Coord) -> f64 {
        let (p, w) = (self.pit(s), self.wumpus(s));
        if self.exclusive {
            p + w
        } else {
            1.0 - (1.0 - p) * (1.0 - w)
        }
    }
}

impl Knowledge {
    pub fn new(config: &WumpusConfig) -> Knowledge {
        Knowledge {
            config: *config,
            visited: Area::EMPTY,
            obstacles: Area::EMPTY,
            breezy: Area::EMPTY,
            calm: Area::EMPTY,
            smelly: Area::EMPTY,
            fresh: Area::EMPTY,
            no_wumpus: Area::EMPTY,
            wumpus_dead: false,
            last: None,
        }
    }

    pub fn size(&self) -> u8 {
        self.config.size
    }

    /// Takes in one step's request (call once per step, before deciding).
    pub fn observe(&mut self, req: &WumpusRequest) {
        if let Some((before, action)) = self.last {
            if action == WumpusAction::Forward && req.percept.bump {
                if let Some(ahead) = before.at.step(before.facing, self.size()) {
                    self.obstacles.insert(ahead);
                }
            }
            if action == WumpusAction::Shoot {
                self.learn_from_shot(before.at, before.facing, req.percept.scream);
            }
        }
        let here = Area::from_iter([req.at]);
        self.visited = self.visited.union(here);
        let p = req.percept;
        (self.breezy, self.calm) = split(self.breezy, self.calm, here, p.breeze);
        (self.smelly, self.fresh) = split(self.smelly, self.fresh, here, p.stench);
    }

    /// Remembers the action about to be sent (for the next percept's bump or scream).
    pub fn acted(&mut self, req: &WumpusRequest, action: WumpusAction) {
        self.last = Some((*req, action));
    }

    fn learn_from_shot(&mut self, from: Coord, facing: Dir, scream: bool) {
        if scream {
            self.smelly = Area::EMPTY;
            if self.config.wumpus == WumpusPlacement::One {
                self.wumpus_dead = true;
            }
        }
        // The arrow surely reached a square when every square before it is
        // known to let it through. A miss clears every such square; a hit
        // clears at least the first one past the visited squares.
        let mut square = from.step(facing, self.size());
        while let Some(s) = square.filter(|s| !self.obstacles.contains(*s)) {
            self.no_wumpus.insert(s);
            let passes = self.visited.contains(s) || self.config.obstacle_chance == 0.0;
            if !passes || (scream && !self.visited.contains(s)) {
                break;
            }
            square = s.step(facing, self.size());
        }
    }

    /// Squares not yet visited and not known to be obstacles.
    pub fn unknown(&self) -> Area {
        Area::grid(self.size()).minus(self.visited).minus(self.obstacles)
    }

    /// The exact posterior over the unknown squares given everything sensed.
    pub fn beliefs(&self) -> Beliefs {
        match self.config.wumpus {
            WumpusPlacement::One => self.beliefs_one_wumpus(),
            WumpusPlacement::EachSquare => self.beliefs_each_square(),
        }
    }

    fn near(&self, sensed: Area) -> Area {
        sensed.squares().fold(Area::EMPTY, |acc, v| acc.union(v.neighbours(self.size())))
    }

    /// Pits and the wumpus are independent a priori, and breezes depend on
    /// pits only, stenches on the wumpus only: the posterior factorises.
    fn beliefs_one_wumpus(&self) -> Beliefs {
        let unknown = self.unknown();
        let no_pit = self.near(self.calm);
        let mut pits = Frontier::default();
        let order: Vec<Coord> = unknown.squares().collect();
        for &s in &order {
            let p = if no_pit.contains(s) { 0.0 } else { self.config.pit_chance };
            pits.add(s, [1.0 - p, p, 0.0]);
        }
        for v in self.breezy.squares() {
            pits.at_least_one(v.neighbours(self.size()), 1);
        }
        let mut beliefs = Beliefs { pit: [0.0; 64], wumpus: [0.0; 64], exclusive: false };
        for (s, post) in order.iter().zip(pits.posteriors()) {
            beliefs.pit[s.index() as usize] = post[1];
        }
        if !self.wumpus_dead {
            let mut candidates = unknown
                .minus(Area::from_iter([WumpusWorld::START]))
                .minus(self.no_wumpus)
                .minus(self.near(self.fresh));
            for v in self.smelly.squares() {
                candidates = candidates.intersection(v.neighbours(self.size()));
            }
            let n = candidates.len() as f64;
            for s in candidates.squares() {
                beliefs.wumpus[s.index() as usize] = 1.0 / n;
            }
        }
        beliefs
    }

    /// Each square is a wumpus, else a pit, else (an obstacle or) nothing:
    /// exclusive states, enumerated together. (The number of wumpuses,
    /// which the arrows reveal, is not used: an approximation.)
    fn beliefs_each_square(&self) -> Beliefs {
        let c = &self.config;
        let (no_pit, no_wumpus) = (self.near(self.calm), self.near(self.fresh).union(self.no_wumpus));
        let mut frontier = Frontier::default();
        let order: Vec<Coord> = self.unknown().squares().collect();
        for &s in &order {
            let pit = if no_pit.contains(s) { 0.0 } else { (1.0 - c.wumpus_chance) * c.pit_chance };
            let wumpus = if no_wumpus.contains(s) { 0.0 } else { c.wumpus_chance };
            frontier.add(s, [(1.0 - c.wumpus_chance) * (1.0 - c.pit_chance), pit, wumpus]);
        }
        for v in self.breezy.squares() {
            frontier.at_least_one(v.neighbours(self.size()), 1);
        }
        for v in self.smelly.squares() {
            frontier.at_least_one(v.neighbours(self.size()), 2);
        }
        let mut beliefs = Beliefs { pit: [0.0; 64], wumpus: [0.0; 64], exclusive: true };
        for (s, post) in order.iter().zip(frontier.posteriors()) {
            beliefs.pit[s.index() as usize] = post[1];
            beliefs.wumpus[s.index() as usize] = post[2];
        }
        beliefs
    }

    /// Unknown squares that are certainly safe.
    pub fn safe_unknown(&self, beliefs: &Beliefs) -> Area {
        self.unknown().squares().filter(|&s| beliefs.risk(s) < ZERO).collect()
    }
}

/// Moves `here` into `yes` or `no` by `flag`.
fn split(yes: Area, no: Area, here: Area, flag: bool) -> (Area, Area) {
    if flag {
        (yes.union(here), no.minus(here))
    } else {
        (yes.minus(here), no.union(here))
    }
}
