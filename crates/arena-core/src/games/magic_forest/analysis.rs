//! Magic Forest's analyser: not built yet (docs/analysis.md): analysing one of its
//! replays says so in one line.

use super::replay::ForestBody;
use crate::analysis::{AnalysedBody, Budget, Judgement, Measure};
use crate::replay::Replay;

impl AnalysedBody for ForestBody {
    fn measure(&self) -> Measure {
        Measure::ExpectedScore { span: 1.0 }
    }

    fn judge<E>(&self, _replay: &Replay<E>, _budget: Budget) -> Result<Vec<Judgement>, String> {
        Err("Magic Forest games have no analyser yet (docs/analysis.md)".into())
    }
}
