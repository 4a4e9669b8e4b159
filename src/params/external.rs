//! External extractor descriptions (`extractor: external`): a parameter file naming a worker
//! process (`command:`) whose `parameters:` are ordinary genes. The command and the time budgets
//! travel as fixed parameters (`command`, `timeout`, `startup`), so a setting of an external
//! extractor names everything needed to run it, and a run's `run.yaml`, `best.yaml` and
//! checkpoint carry them like any other value. In a combination, a member `m` is external when
//! the file declares `m.command`; its space is then the file's own `m.*` parameters.

use super::located::{At, AtFn};
use super::space::{ParamSpace, ParamSpec, Spec};
use super::value::Value;
use crate::error::Result;
use serde_saphyr::Location;

/// The registry name of an external extractor.
pub const NAME: &str = "external";
/// The worker's command line (run by `sh -c 'exec …'`).
pub const COMMAND: &str = "command";
/// Seconds a page may take before the worker is stopped and restarted (the page: an error row).
pub const TIMEOUT: &str = "timeout";
/// Seconds a worker may take to start and answer its handshake.
pub const STARTUP: &str = "startup";
/// The parameters that configure the worker itself: never sent to it as genes.
pub const RESERVED: &[&str] = &[COMMAND, TIMEOUT, STARTUP];
/// The default per-page budget, seconds.
pub const DEFAULT_TIMEOUT: f64 = 30.0;
/// The default handshake budget, seconds.
pub const DEFAULT_STARTUP: f64 = 60.0;

/// The top-level keys of an external description, with their places.
#[derive(Default)]
pub struct Keys {
    /// `command:`.
    pub command: Option<At<String>>,
    /// `timeout:` (seconds per page).
    pub timeout: Option<At<f64>>,
    /// `startup:` (seconds for the handshake).
    pub startup: Option<At<f64>>,
}

fn fixed(name: String, spec: Spec, default: Value, meaning: &str) -> ParamSpec {
    ParamSpec { name, spec, default, meaning: meaning.to_string(), tune: false, sane: None }
}

/// The fixed parameter holding a command.
fn command_param(name: String, command: &str) -> ParamSpec {
    let spec = Spec::Categorical { choices: vec![command.to_string()] };
    fixed(name, spec, Value::Cat(command.to_string()), "the worker's command line")
}

/// A budget parameter (seconds).
fn budget_param(name: String, seconds: f64, meaning: &str) -> ParamSpec {
    fixed(name, Spec::Float { min: 0.001, max: 86_400.0, step: None }, Value::Float(seconds), meaning)
}

/// Refuses the external keys in a file that is not an external extractor's (`combination`: a
/// combination's, whose external members declare `member.command` instead).
pub fn refuse(keys: &Keys, combination: bool, at: &AtFn) -> Result<()> {
    let given = [
        keys.command.as_ref().map(|c| (c.referenced, COMMAND)),
        keys.timeout.as_ref().map(|c| (c.referenced, TIMEOUT)),
        keys.startup.as_ref().map(|c| (c.referenced, STARTUP)),
    ];
    match given.into_iter().flatten().next() {
        Some((loc, key)) => {
            let hint = match combination {
                true => format!("; a combination's external member declares its own 'member.{key}' parameter"),
                false => String::new(),
            };
            Err(at(loc, format!("'{key}' belongs to an external extractor (extractor: {NAME}){hint}")))
        }
        None => Ok(()),
    }
}

/// Completes the space of a single (non-combination) file: an external extractor gets its
/// `command`, `timeout` and `startup` parameters from the top-level keys (or keeps them when its
/// `parameters` declare them, as a written `best.yaml` does); any other extractor refuses the keys.
pub fn complete(space: &mut ParamSpace, keys: Keys, at: &AtFn) -> Result<()> {
    if space.extractor != NAME {
        return refuse(&keys, false, at);
    }
    space.kind = super::value::Kind::External;
    complete_member(space, "", keys, at)
}

/// Adds `prefix + command`, `timeout` and `startup` to `space` from `keys` (or checks those the
/// space declares). `prefix` is `""` for an external file, `m.` for a combination's member.
pub(super) fn complete_member(space: &mut ParamSpace, prefix: &str, keys: Keys, at: &AtFn) -> Result<()> {
    let name = |n: &str| format!("{prefix}{n}");
    match (keys.command, space.param(&name(COMMAND)).map(|p| p.spec.clone())) {
        (Some(c), None) => {
            if c.value.trim().is_empty() {
                return Err(at(c.referenced, "'command' is empty: name the worker to run".into()));
            }
            space.params.push(command_param(name(COMMAND), &c.value));
        }
        (Some(c), Some(_)) => {
            return Err(at(c.referenced, format!("'command' is given twice (also as parameter '{}')", name(COMMAND))));
        }
        (None, Some(Spec::Categorical { choices })) if choices.len() == 1 => {}
        (None, Some(_)) => {
            let msg = format!("parameter '{}' must be categorical with the one command as its choice", name(COMMAND));
            return Err(at(Location::UNKNOWN, msg));
        }
        (None, None) => {
            let msg = "an external extractor needs 'command:' (the worker to run, e.g. `python3 -m cetune.worker mymodule:extract`)";
            return Err(at(Location::UNKNOWN, msg.into()));
        }
    }
    for (key, given, default, meaning) in [
        (TIMEOUT, keys.timeout, DEFAULT_TIMEOUT, "seconds a page may take (then the worker is restarted)"),
        (STARTUP, keys.startup, DEFAULT_STARTUP, "seconds a worker may take to answer its handshake"),
    ] {
        let declared = space.param(&name(key)).is_some();
        match given {
            Some(t) if declared => {
                return Err(at(t.referenced, format!("'{key}' is given twice (also as parameter '{}')", name(key))));
            }
            Some(t) if !(t.value.is_finite() && t.value > 0.0 && t.value <= 86_400.0) => {
                return Err(at(
                    t.referenced,
                    format!("'{key}' must be a number of seconds in (0, 86400], got {}", t.value),
                ));
            }
            Some(t) => space.params.push(budget_param(name(key), t.value, meaning)),
            None if declared => {}
            None => space.params.push(budget_param(name(key), default, meaning)),
        }
    }
    Ok(())
}
