//! Parameter spaces: the YAML descriptions in `params/` (the blueprint of all individuals,
//! Gottron 2009 Figure 2), their validation, and concrete settings.
//!
//! A [`ParamSpace`] lists typed parameters with ranges, precision, defaults and meanings, the
//! known-good individuals from the literature and the correlated parameters. A [`Setting`] gives
//! a value to every parameter; [`compose`] namespaces and composes spaces (`accb.r`, `lqf.t`).
//! Imports from the crate: `error`, `yaml` and `paths` (the bounded reader).

pub mod combine;
pub mod compose;
pub mod external;
mod located;
pub mod route;
mod space;
mod value;
mod yaml;

pub use located::Builtin;
pub use space::{KnownGood, ParamSpace, ParamSpec, Search, Spec, snap};
pub use value::{Kind, Member, Setting, SettingReader, Value};
pub use yaml::{About, ParamsFile, load_file, parse_str, read_file, read_model_file, self_contained, settings_file};

/// Declares the closed set of a family's categorical parameter: the enum, and how its value in a
/// setting (a choice name of the YAML) parses into it, for [`SettingReader::choice`]; a value
/// outside the set is refused with the names it accepts ("set or diff", "none, before or after").
///
/// ```ignore
/// crate::params::choices! {
///     /// How a block is matched in a reference page.
///     enum Mode { Set = "set", Diff = "diff" }
/// }
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! __choices {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $name { $($(#[$vm])* $variant),+ }

        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> std::result::Result<Self, String> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err($crate::params::one_of(&[$($text),+])),
                }
            }
        }
    };
}
pub use __choices as choices;

/// The names a closed set accepts, as an error says them: "a or b", "a, b or c".
pub fn one_of(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[cfg(test)]
mod choices_tests {
    crate::params::choices! {
        /// A set of three.
        enum Three { A = "a", B = "b", C = "c" }
    }

    #[test]
    fn a_closed_set_parses_its_names_and_refuses_others_naming_them() {
        assert_eq!("b".parse::<Three>(), Ok(Three::B));
        assert_eq!("d".parse::<Three>(), Err("a, b or c".to_string()));
        assert_eq!(super::one_of(&["x", "y"]), "x or y");
    }
}
