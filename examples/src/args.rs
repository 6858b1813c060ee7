//! A tiny `--flag value` parser: no dependency, clear errors.

use std::collections::BTreeMap;

/// Parsed flags: `--name value` pairs and bare `--name` switches.
#[derive(Debug, Default)]
pub struct Args {
    values: BTreeMap<String, String>,
    switches: Vec<String>,
}

impl Args {
    /// Parses `args` (without the program name). `valued` lists the flags that take a
    /// value, `switches` those that do not. Anything else is an error.
    pub fn parse(
        args: impl IntoIterator<Item = String>,
        valued: &[&str],
        switches: &[&str],
    ) -> Result<Args, String> {
        let mut out = Args::default();
        let mut it = args.into_iter();
        while let Some(arg) = it.next() {
            let Some(name) = arg.strip_prefix("--") else {
                return Err(format!("unexpected argument `{arg}`"));
            };
            if valued.contains(&name) {
                let value = it
                    .next()
                    .ok_or_else(|| format!("`--{name}` needs a value"))?;
                out.values.insert(name.to_string(), value);
            } else if switches.contains(&name) {
                out.switches.push(name.to_string());
            } else {
                return Err(format!("unknown flag `--{name}`"));
            }
        }
        Ok(out)
    }

    /// The value of `--name`, if given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// `--name` parsed as a number, or `default`; an error names the flag.
    pub fn number(&self, name: &str, default: usize) -> Result<usize, String> {
        match self.value(name) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| format!("`--{name}` wants a non-negative integer, got `{v}`")),
        }
    }

    /// `--name` parsed as a finite real number, or `default`; an error names the flag.
    pub fn real(&self, name: &str, default: f32) -> Result<f32, String> {
        match self.value(name) {
            None => Ok(default),
            Some(v) => v
                .parse::<f32>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("`--{name}` wants a number, got `{v}`")),
        }
    }

    /// True when the switch `--name` was given.
    pub fn switch(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(v: &[&str]) -> Result<Args, String> {
        Args::parse(
            v.iter().map(|s| s.to_string()),
            &["scene", "bodies"],
            &["check"],
        )
    }

    #[test]
    fn good_and_bad_flags() {
        let a = parse(&["--scene", "pile", "--check", "--bodies", "12"]).unwrap();
        assert_eq!(a.value("scene"), Some("pile"));
        assert_eq!(a.number("bodies", 1), Ok(12));
        assert_eq!(a.number("frames", 60), Ok(60));
        assert!(a.switch("check"));
        assert!(parse(&["--bogus"]).unwrap_err().contains("unknown flag"));
        assert!(parse(&["--bodies"]).unwrap_err().contains("needs a value"));
        assert!(
            parse(&["bodies"])
                .unwrap_err()
                .contains("unexpected argument")
        );
        let bad = parse(&["--bodies", "-3"]).unwrap();
        assert!(bad.number("bodies", 1).is_err());
        assert_eq!(bad.real("bodies", 0.5), Ok(-3.0));
        assert_eq!(a.real("frames", 0.5), Ok(0.5));
        assert!(a.real("scene", 0.5).is_err());
    }
}
