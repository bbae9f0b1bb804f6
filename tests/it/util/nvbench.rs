//! NVBench JSON result files made by the tests: a document of devices and
//! benchmarks, benchmarks of axes and states, states of axis values and
//! summaries, written as NVBench writes them (state names `Device=0 N=4`,
//! pow2 values named `2^E`, summary values as strings).
//!
//! ```ignore
//! let doc = Doc::new().device(0, "GPU").bench(
//!     Bench::new("copy").axis("N", "int64").state(
//!         State::on(0).at("N", 4).times(Times::around(1e-3, [0.99, 0.995, 1.005]).iqr(0.01)),
//!     ),
//! );
//! ```

use serde_json::{Value, json};

/// A result file: its devices and benchmarks.
#[derive(Clone, Debug, Default)]
pub struct Doc {
    devices: Vec<Value>,
    benchmarks: Vec<Bench>,
}

impl Doc {
    pub fn new() -> Doc {
        Doc::default()
    }

    /// Adds the device `id` named `name`.
    pub fn device(mut self, id: i64, name: &str) -> Doc {
        self.devices.push(json!({"id": id, "name": name}));
        self
    }

    pub fn bench(mut self, bench: Bench) -> Doc {
        self.benchmarks.push(bench);
        self
    }

    /// The document, to change further as JSON.
    pub fn json(&self) -> Value {
        json!({
            "meta": {"version": {"json": {"string": "1.0.0"}}},
            "devices": self.devices,
            "benchmarks": self.benchmarks.iter().map(Bench::json).collect::<Vec<_>>(),
        })
    }

    /// The document's JSON text.
    pub fn text(&self) -> String {
        self.json().to_string()
    }

    /// One benchmark `bench` on device 0, named `gpu`, with an `int64` axis
    /// `N`: a state `N=n` per `(n, seconds)`, timed by `times(seconds)`.
    pub fn n_sweep(
        gpu: &str,
        bench: &str,
        states: &[(i64, f64)],
        times: impl Fn(f64) -> Times,
    ) -> Doc {
        let states = states
            .iter()
            .map(|&(n, seconds)| State::on(0).at("N", n).times(times(seconds)));
        Doc::new()
            .device(0, gpu)
            .bench(Bench::new(bench).axis("N", "int64").states(states))
    }
}

/// A benchmark: its axes (name, NVBench type, flags) and states. Its
/// `devices` are those of its states.
#[derive(Clone, Debug)]
pub struct Bench {
    name: String,
    axes: Vec<(String, String, String)>,
    states: Vec<State>,
}

impl Bench {
    pub fn new(name: &str) -> Bench {
        Bench {
            name: name.to_string(),
            axes: Vec::new(),
            states: Vec::new(),
        }
    }

    /// An axis of type `kind`: `int64`, `float64`, `string` or `type`.
    pub fn axis(mut self, name: &str, kind: &str) -> Bench {
        self.axes.push((name.into(), kind.into(), String::new()));
        self
    }

    /// An `int64` axis flagged `pow2`: its values are named `2^E`.
    pub fn pow2_axis(mut self, name: &str) -> Bench {
        self.axes.push((name.into(), "int64".into(), "pow2".into()));
        self
    }

    pub fn state(mut self, state: State) -> Bench {
        self.states.push(state);
        self
    }

    pub fn states(mut self, states: impl IntoIterator<Item = State>) -> Bench {
        self.states.extend(states);
        self
    }

    fn json(&self) -> Value {
        let mut devices: Vec<i64> = self.states.iter().map(|s| s.device).collect();
        devices.sort();
        devices.dedup();
        let axes: Vec<Value> = self
            .axes
            .iter()
            .map(|(name, kind, flags)| json!({"name": name, "type": kind, "flags": flags}))
            .collect();
        let states: Vec<Value> = self.states.iter().map(|s| s.json(&self.axes)).collect();
        json!({"name": self.name, "devices": devices, "axes": axes, "states": states})
    }
}

/// A state on a device: its axis values (by axis name, as text) and its
/// summaries.
#[derive(Clone, Debug)]
pub struct State {
    device: i64,
    values: Vec<(String, String)>,
    summaries: Vec<Value>,
}

impl State {
    pub fn on(device: i64) -> State {
        State {
            device,
            values: Vec::new(),
            summaries: Vec::new(),
        }
    }

    /// The value of the benchmark's axis `axis`.
    pub fn at(mut self, axis: &str, value: impl ToString) -> State {
        self.values.push((axis.into(), value.to_string()));
        self
    }

    /// The summaries of `times`.
    pub fn times(mut self, times: Times) -> State {
        self.summaries.extend(times.summaries());
        self
    }

    /// A `float64` summary.
    pub fn float(mut self, tag: &str, value: f64) -> State {
        self.summaries.push(float_summary(tag, value));
        self
    }

    /// A sidecar summary (`nv/json/bin:...`, `nv/json/freqs-bin:...`):
    /// `size` values in the file `filename`.
    pub fn sidecar(mut self, tag: &str, filename: &str, size: &str) -> State {
        self.summaries.push(json!({"tag": tag, "data": [
            {"name": "filename", "type": "string", "value": filename},
            {"name": "size", "type": "int64", "value": size},
        ]}));
        self
    }

    fn json(&self, axes: &[(String, String, String)]) -> Value {
        let mut name = format!("Device={}", self.device);
        let mut values = Vec::new();
        for (axis, value) in &self.values {
            let (_, kind, flags) = axes
                .iter()
                .find(|(name, ..)| name == axis)
                .unwrap_or_else(|| panic!("no axis {axis:?} in the benchmark"));
            let shown = match value.parse::<u64>() {
                Ok(n) if flags == "pow2" && n.is_power_of_two() => format!("2^{}", n.ilog2()),
                _ => value.clone(),
            };
            name.push_str(&format!(" {axis}={shown}"));
            // A type axis's values are strings.
            let kind = if kind == "type" { "string" } else { kind };
            values.push(json!({"name": axis, "type": kind, "value": value}));
        }
        json!({
            "name": name,
            "device": self.device,
            "axis_values": values,
            "summaries": self.summaries,
            "is_skipped": false,
        })
    }
}

/// A `float64` summary, its value written as `{:e}` (`9.9e-4`).
fn float_summary(tag: &str, value: f64) -> Value {
    json!({"tag": tag, "data": [
        {"name": "value", "type": "float64", "value": format!("{value:e}")},
    ]})
}

/// The robust GPU-time summaries of a state (seconds), the relative IQR
/// and the mean SM clock, as far as they are given.
#[derive(Clone, Copy, Debug)]
pub struct Times {
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub mean: Option<f64>,
    pub q3: f64,
    pub max: Option<f64>,
    pub iqr_relative: Option<f64>,
    pub sm_clock: Option<f64>,
}

impl Times {
    /// `min`, `q1`, `median` and `q3`; nothing else.
    pub fn quartiles(min: f64, q1: f64, median: f64, q3: f64) -> Times {
        Times {
            min,
            q1,
            median,
            mean: None,
            q3,
            max: None,
            iqr_relative: None,
            sm_clock: None,
        }
    }

    /// The quartiles of `median` times `[min, q1, q3]`.
    pub fn around(median: f64, [min, q1, q3]: [f64; 3]) -> Times {
        Times::quartiles(median * min, median * q1, median, median * q3)
    }

    pub fn mean(self, mean: f64) -> Times {
        Times {
            mean: Some(mean),
            ..self
        }
    }

    pub fn max(self, max: f64) -> Times {
        Times {
            max: Some(max),
            ..self
        }
    }

    pub fn iqr(self, relative: f64) -> Times {
        Times {
            iqr_relative: Some(relative),
            ..self
        }
    }

    /// The mean SM clock rate, in Hz.
    pub fn clock(self, hz: f64) -> Times {
        Times {
            sm_clock: Some(hz),
            ..self
        }
    }

    fn summaries(&self) -> Vec<Value> {
        let gpu = |name: &str| format!("nv/cold/time/gpu/{name}");
        let tagged = [
            (gpu("min"), Some(self.min)),
            (gpu("q1"), Some(self.q1)),
            (gpu("median"), Some(self.median)),
            (gpu("mean"), self.mean),
            (gpu("q3"), Some(self.q3)),
            (gpu("max"), self.max),
            (gpu("iqr/relative"), self.iqr_relative),
            ("nv/cold/sm_clock_rate/mean".to_string(), self.sm_clock),
        ];
        tagged
            .iter()
            .filter_map(|(tag, value)| value.map(|v| float_summary(tag, v)))
            .collect()
    }
}
