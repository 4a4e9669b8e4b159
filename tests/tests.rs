//! The integration test binary: CLI behaviour end to end (`cli`), robustness (`robust`) and the
//! checks on the real gold sets (`real_data`, ignored by default; `.ci/run` runs them).

mod util;

mod annotate;
mod annotate_server;
mod blocks;
mod blogs;
mod cli;
mod collect;
mod combine;
mod confidence;
mod external;
mod families;
mod feeds;
mod fitting;
mod general;
mod hostile;
mod manual;
mod optimise;
mod real_data;
mod reliability;
mod report;
mod robust;
mod route;
mod safety;
mod stats;
mod structure;
mod yaml;
