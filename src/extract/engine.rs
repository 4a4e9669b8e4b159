//! What building extractors keeps between builds: the model files read, the external workers
//! running and which external commands may run. It is a value, not process-wide state, so a
//! program that uses the library decides its own lifetime and policy: the command line makes one
//! restricted engine per run ([`Engine::restricted`]) and passes it down; a program's
//! [`Engine::default`] trusts every command it is given. Every way to a configured extractor
//! ([`super::build`], [`super::load_file`], [`super::named`]) takes one.
//!
//! Immutable tables built on first use (stop lists, tag and pattern tables, the compiled-in
//! general model, the family table) stay statics: they hold nothing a caller can change.

use super::external::{trust::Trust, worker::Pools};
use super::fit::ModelCache;
use std::sync::Arc;

/// The model cache, the external worker pools and the trust policy of one program's use of the
/// extractors. Cloning it is cheap and shares them: a corpus, a run or a study holds a clone.
#[derive(Debug, Clone, Default)]
pub struct Engine(Arc<Parts>);

#[derive(Debug, Default)]
struct Parts {
    models: ModelCache,
    pools: Pools,
    trust: Trust,
}

impl Engine {
    /// The command line's engine: external commands run only from the parameter files the user
    /// names ([`Trust::restricted`]).
    pub fn restricted() -> Engine {
        Engine(Arc::new(Parts { trust: Trust::restricted(), ..Parts::default() }))
    }

    /// The model files read, by path.
    pub fn models(&self) -> &ModelCache {
        &self.0.models
    }

    /// The external workers running, by command.
    pub fn pools(&self) -> &Pools {
        &self.0.pools
    }

    /// Which external commands may run.
    pub fn trust(&self) -> &Trust {
        &self.0.trust
    }
}
