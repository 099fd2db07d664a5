//! A scenario in a snapshot: its document's text, when it was set, each
//! rule's counts and its stream's state, so a restore continues exactly
//! where the scenario stood. `{"text": "…", "setAt": n, "counts": [[seen,
//! fired], …], "random": n}`.

use crate::prelude::*;

use crate::json::read::Json;
use crate::json::write::Out;
use crate::sim::invalid::InvalidKind;
use crate::sim::random::Rng;

use super::reading::{member, object, time, At, Refusal};
use super::{parse, Progress, Scenario, Words};

impl Scenario {
    /// The scenario as a snapshot keeps it.
    pub fn write_saved(&self, out: &mut Out) {
        out.begin_object();
        out.key("text");
        out.str(&self.text);
        out.key("setAt");
        out.int(self.progress.set_at);
        out.key("counts");
        out.begin_array();
        for (seen, fired) in &self.progress.counts {
            out.begin_array();
            out.uint(*seen);
            out.uint(*fired);
            out.end_array();
        }
        out.end_array();
        out.key("random");
        out.uint(self.progress.rng.state);
        out.end_object();
    }

    /// A scenario as `write_saved` wrote it; refused naming the member.
    pub fn read_saved(v: &Json, words: Words) -> Result<Scenario, Box<Refusal>> {
        let root = At::Root;
        let members = object(v, &root, &["text", "setAt", "counts", "random"])?;
        let get = |name: &'static str| {
            member(members, name).ok_or_else(|| {
                let mut problem = String::from(name);
                problem.push_str(": missing");
                root.refuse(InvalidKind::WrongType, problem)
            })
        };
        let text_at = At::Key(&root, "text");
        let text = get("text")?;
        let text = text
            .as_str()
            .ok_or_else(|| text_at.wrong("a string", text))?;
        let doc = parse::parse(text, words).map_err(|r| text_at.refuse(r.kind, r.text()))?;
        let set_at = time(get("setAt")?, &At::Key(&root, "setAt"))?;
        let counts_at = At::Key(&root, "counts");
        let counts = get("counts")?;
        let list = counts
            .as_array()
            .filter(|l| l.len() == doc.rules.len())
            .ok_or_else(|| counts_at.range("a [seen, fired] pair for each rule", counts))?;
        let mut pairs = Vec::with_capacity(list.len());
        for (i, pair) in list.iter().enumerate() {
            let seen_fired = match pair.as_array() {
                Some([seen, fired]) => seen.as_u64().zip(fired.as_u64()),
                _ => None,
            };
            match seen_fired {
                Some((seen, fired)) if fired <= seen => pairs.push((seen, fired)),
                _ => {
                    return Err(
                        At::Index(&counts_at, i).range("[seen, fired], fired at most seen", pair)
                    )
                }
            }
        }
        let random = get("random")?;
        let state = random
            .as_u64()
            .ok_or_else(|| At::Key(&root, "random").wrong("a whole number", random))?;
        Ok(Scenario {
            doc: alloc::rc::Rc::new(doc),
            text: text.to_owned(),
            progress: Progress {
                set_at,
                counts: pairs,
                rng: Rng::new(state),
            },
        })
    }
}
