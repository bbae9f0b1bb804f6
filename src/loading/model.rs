//! The NVBench JSON result format: a serde mirror that keeps only what the
//! comparison reads, with JSON scalars kept loosely typed so that the
//! reference's lazy, per-state schema errors can be reproduced.

use std::fmt;
use std::sync::Arc;

use compact_str::CompactString;
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::loading::exact::ExactVec;
use crate::loading::scalar::{Scalar, present};
use crate::loading::summaries::Summaries;

/// A state's `device` as the reference uses it: compared with `==` to the
/// integer device ids of its benchmark (so `true` is 1 and `0.0` is 0; a
/// string, `null` or 1.5 equals no id and the state is never compared),
/// and printed with `str()` in the `Device=...` prefix its match key drops.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum StateDevice {
    /// No `device` key: the reference fails where it filters the states.
    #[default]
    Missing,
    /// A JSON integer.
    Id(i64),
    /// Any other value: the id it equals, if any, and its `str()`. Boxed:
    /// rare, and the enum is 16 bytes instead of 32 in every state.
    Other(Box<OtherDevice>),
}

/// A `device` that is not a JSON integer.
#[derive(Debug, Clone, PartialEq)]
pub struct OtherDevice {
    pub id: Option<i64>,
    pub text: Box<str>,
}

impl StateDevice {
    fn of(value: Scalar) -> StateDevice {
        let id = match &value {
            Scalar::Int(v) => return StateDevice::Id(*v),
            Scalar::Bool(b) => Some(i64::from(*b)),
            // Python compares an int and a float exactly.
            Scalar::Float(v) if v.fract() == 0.0 && v.abs() < 9.2e18 => {
                Some(*v as i64).filter(|id| *id as f64 == *v)
            }
            _ => None,
        };
        StateDevice::Other(Box::new(OtherDevice {
            id,
            text: value.py_str().into_boxed_str(),
        }))
    }

    /// The device id the value equals, as `state["device"] == id` tells.
    pub fn id(&self) -> Option<i64> {
        match self {
            StateDevice::Missing => None,
            StateDevice::Id(id) => Some(*id),
            StateDevice::Other(other) => other.id,
        }
    }

    /// `state["device"] == id`.
    pub fn is(&self, id: i64) -> bool {
        self.id() == Some(id)
    }
}

/// `str(state["device"])`.
impl fmt::Display for StateDevice {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            StateDevice::Missing => Ok(()),
            StateDevice::Id(id) => write!(f, "{id}"),
            StateDevice::Other(other) => f.write_str(&other.text),
        }
    }
}

fn missing_device() -> StateDevice {
    StateDevice::Missing
}

pub(crate) fn state_device<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<StateDevice, D::Error> {
    Scalar::deserialize(deserializer).map(StateDevice::of)
}

/// A present `axis_values` key, `null` included.
#[allow(clippy::type_complexity)]
pub(crate) fn present_axis_values<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<Arc<[AxisValue]>>>, D::Error> {
    Option::<ExactVec<AxisValue>>::deserialize(deserializer)
        .map(|values| Some(values.map(|v| v.0.into())))
}

/// A present, non-null `axis_values` list (the schema reader's fallback
/// for a list it did not walk).
pub(crate) fn axis_value_list<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Arc<[AxisValue]>, D::Error> {
    ExactVec::<AxisValue>::deserialize(deserializer).map(|values| values.0.into())
}

/// A benchmark's states, without the slack of a grown vector.
fn exact_states<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Vec<State>>, D::Error> {
    Option::<ExactVec<State>>::deserialize(deserializer).map(|states| states.map(|s| s.0))
}

/// A state's name; its position in the input tells the reader how far
/// parsing has come (see `mapped::reached`).
pub(crate) fn state_name<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<CompactString, D::Error> {
    struct NameVisitor;
    impl<'de> Visitor<'de> for NameVisitor {
        type Value = CompactString;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a state name")
        }
        fn visit_borrowed_str<E>(self, v: &'de str) -> Result<CompactString, E> {
            crate::loading::mapped::reached(v.as_ptr());
            Ok(v.into())
        }
        fn visit_str<E>(self, v: &str) -> Result<CompactString, E> {
            Ok(v.into())
        }
    }
    deserializer.deserialize_str(NameVisitor)
}

/// A whole NVBench JSON file. Missing sections stay `None` so that the
/// caller can fail at the point where the reference would.
#[derive(Debug, Deserialize)]
pub struct Root {
    #[serde(default)]
    pub meta: Option<Meta>,
    #[serde(default)]
    pub devices: Option<Vec<Device>>,
    #[serde(default)]
    pub benchmarks: Option<Vec<Benchmark>>,
}

impl Root {
    /// Shares `anchor`'s idents (or their axis-value lists) wherever a
    /// state at the same position of a benchmark at the same position and
    /// of the same name has an identical one: the runs of a comparison
    /// repeat every state, and on huge inputs one ident a state, not a
    /// state and run, is what the comparison can afford. Nothing read
    /// changes: they print alike.
    pub fn share_idents_with(&mut self, anchor: &Root) {
        let (Some(mine), Some(theirs)) = (&mut self.benchmarks, &anchor.benchmarks) else {
            return;
        };
        for (bench, anchor_bench) in mine.iter_mut().zip(theirs) {
            if bench.name != anchor_bench.name {
                continue;
            }
            let (Some(states), Some(anchor_states)) = (&mut bench.states, &anchor_bench.states)
            else {
                continue;
            };
            for (state, anchor_state) in states.iter_mut().zip(anchor_states) {
                state.share_ident_with(anchor_state);
            }
        }
    }

    /// Every state of every benchmark.
    pub fn state_count(&self) -> usize {
        let benchmarks = self.benchmarks.as_deref().unwrap_or(&[]);
        benchmarks.iter().map(|b| b.states().len()).sum()
    }
}

/// `meta`: only `version.json.string` is read (the rest, e.g. a long
/// `argv`, is skipped without being stored).
#[derive(Debug, Default, Deserialize)]
pub struct Meta {
    #[serde(default)]
    pub version: Option<MetaVersion>,
}

#[derive(Debug, Default, Deserialize)]
pub struct MetaVersion {
    #[serde(default)]
    pub json: Option<JsonVersion>,
}

#[derive(Debug, Default, Deserialize)]
pub struct JsonVersion {
    /// `null` is a version too (the reference warns "file version: None").
    #[serde(default, deserialize_with = "present")]
    pub string: Option<Scalar>,
}

/// One entry of `devices`: kept as its JSON text (compared and diffed as a
/// whole only when two device sections differ), with its `id` and `name`.
#[derive(Debug)]
pub struct Device {
    raw: Box<serde_json::value::RawValue>,
    pub id: Option<Scalar>,
    pub name: Option<Scalar>,
}

#[derive(Deserialize)]
struct DeviceHead {
    #[serde(default)]
    id: Option<Scalar>,
    #[serde(default)]
    name: Option<Scalar>,
}

/// How deep a device section may nest. Python's `json` reads about 1,000
/// levels before a RecursionError; serde_json's default limit of 128 made
/// a deeper device read as `null` and compare equal to any other. Up to
/// this depth devices are parsed without that limit (well within the
/// stack); deeper ones are an error, as they are for the reference.
pub const MAX_DEVICE_DEPTH: usize = 1000;

/// The deepest nesting of arrays and objects in a JSON text (strings skipped).
pub(crate) fn nesting_depth(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for byte in text.bytes() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Parses a device's JSON text without serde_json's depth limit (the
/// depth was checked when the device was read).
fn parse_device<'a, T: Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    T::deserialize(&mut deserializer)
}

impl<'de> Deserialize<'de> for Device {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
        if nesting_depth(raw.get()) > MAX_DEVICE_DEPTH {
            return Err(de::Error::custom(format!(
                "a device section is nested deeper than {MAX_DEVICE_DEPTH} levels"
            )));
        }
        // A device that is not an object has no id or name.
        let text = crate::pycompat::pyjson::big_integers_as_markers(raw.get());
        let text = text.as_deref().unwrap_or(raw.get());
        let head = parse_device::<DeviceHead>(text).unwrap_or(DeviceHead {
            id: None,
            name: None,
        });
        Ok(Device {
            raw,
            id: head.id,
            name: head.name,
        })
    }
}

impl Device {
    /// The section is a JSON object (the model also holds any other value).
    pub fn is_object(&self) -> bool {
        self.raw.get().trim_start().starts_with('{')
    }

    /// The device as a JSON value (parsed on demand).
    pub fn value(&self) -> serde_json::Value {
        // The text was valid JSON when it was read, and no deeper than
        // MAX_DEVICE_DEPTH: this parse does not fail. Integers beyond 64
        // bits are kept exact (as markers `device_diff` reads as ints).
        let text = crate::pycompat::pyjson::big_integers_as_markers(self.raw.get());
        let text = text.as_deref().unwrap_or(self.raw.get());
        parse_device(text).unwrap_or(serde_json::Value::Null)
    }

    /// The `id` as an integer, when it is one (Python `==` with an int).
    pub fn integer_id(&self) -> Option<i64> {
        match self.id.as_ref()? {
            Scalar::Int(id) => Some(*id),
            Scalar::Bool(b) => Some(i64::from(*b)),
            Scalar::Float(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => Some(*f as i64),
            _ => None,
        }
    }

    /// A device section made from a value (a Google Benchmark `context`):
    /// `value` is what device sections are compared by, `name` the heading's.
    pub fn from_value(value: &serde_json::Value, name: Option<String>) -> Device {
        let raw = serde_json::value::to_raw_value(value).unwrap_or_else(|_| {
            serde_json::value::to_raw_value(&serde_json::Value::Null).unwrap_or_default()
        });
        Device {
            raw,
            id: value
                .get("id")
                .and_then(serde_json::Value::as_i64)
                .map(Scalar::Int),
            name: name.map(|name| Scalar::Str(name.into())),
        }
    }

    /// Python equality of two devices: identical text is equal without parsing.
    pub fn python_eq(&self, other: &Device) -> bool {
        self.raw.get() == other.raw.get()
            || crate::pycompat::jsondiff::python_equal(&self.value(), &other.value())
    }
}

/// An integer field read as Python compares it: an integral float (`0.0`,
/// `-0.0`) is that integer, as `0.0 == 0` in the reference.
fn loose_int<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    let value = Scalar::deserialize(deserializer)?;
    match value {
        Scalar::Int(v) => Ok(v),
        Scalar::Float(v) if v.fract() == 0.0 && v.abs() < 9.2e18 => Ok(v as i64),
        other => Err(de::Error::custom(format!(
            "invalid type: {}, expected an integer",
            other.py_repr()
        ))),
    }
}

pub(crate) fn loose_ints<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<i64>, D::Error> {
    struct LooseInt(i64);
    impl<'de> Deserialize<'de> for LooseInt {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            loose_int(deserializer).map(LooseInt)
        }
    }
    let values = Vec::<LooseInt>::deserialize(deserializer)?;
    Ok(values.into_iter().map(|v| v.0).collect())
}

/// A name the reference prints with `str()`: a number is a name too.
pub(crate) fn loose_name<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    match Scalar::deserialize(deserializer)? {
        Scalar::Str(text) => Ok(text.into()),
        other @ (Scalar::Int(_) | Scalar::BigInt(_) | Scalar::Float(_) | Scalar::Bool(_)) => {
            Ok(other.py_str())
        }
        other => Err(de::Error::custom(format!(
            "invalid type: {}, expected a benchmark name",
            other.py_repr()
        ))),
    }
}

#[derive(Debug, Deserialize)]
pub struct Benchmark {
    #[serde(deserialize_with = "loose_name")]
    pub name: String,
    #[serde(deserialize_with = "loose_ints")]
    pub devices: Vec<i64>,
    #[serde(default)]
    pub axes: Option<Vec<Axis>>,
    /// Missing `states` fail only when the benchmark is compared (after
    /// its heading), as in the reference.
    #[serde(default, deserialize_with = "exact_states")]
    pub states: Option<Vec<State>>,
}

impl Benchmark {
    pub fn states(&self) -> &[State] {
        self.states.as_deref().unwrap_or(&[])
    }
}

#[derive(Debug, Deserialize)]
pub struct Axis {
    pub name: String,
    #[serde(rename = "type")]
    pub axis_type: String,
    #[serde(default)]
    pub flags: Option<String>,
}

/// A state, as the comparison reads it. 40 bytes (every state of every
/// run is held until its benchmark is compared): what names it shared
/// ([`StateIdent`], with what few states have), its summaries in place,
/// and the flags in a byte.
#[derive(Debug)]
pub struct State {
    ident: Arc<StateIdent>,
    pub summaries: Option<Summaries>,
    flags: u8,
}

/// What names a state: its name, device and axis values, in one
/// allocation that every run of a comparison repeating the state
/// identically shares (the schema reader's `loading::anchor`,
/// [`Root::share_idents_with`]): 8 bytes a state and run instead of 56.
#[derive(Debug, Clone, Default)]
pub struct StateIdent {
    /// Inline up to 24 bytes, as most state names are.
    name: CompactString,
    /// [`StateDevice::Missing`] when the key is missing: the reference
    /// fails only when it filters the benchmark's states by device.
    device: StateDevice,
    /// Shared with the records of the state (`Arc`), not copied into them;
    /// `None` for a JSON `null` or a missing key (told apart by a flag of
    /// the state).
    axis_values: Option<Arc<[AxisValue]>>,
    /// What few states have (an ident with it is never shared).
    rare: Option<Box<RareState>>,
}

impl StateIdent {
    pub(crate) fn new(
        name: CompactString,
        device: StateDevice,
        axis_values: Option<Arc<[AxisValue]>>,
    ) -> StateIdent {
        StateIdent {
            name,
            device,
            axis_values,
            rare: None,
        }
    }

    /// Equal and printed alike, without what few states have.
    fn identical(&self, other: &StateIdent) -> bool {
        let lists = match (&self.axis_values, &other.axis_values) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || identical_lists(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        let plain = self.rare.is_none() && other.rare.is_none();
        self.name == other.name && self.device == other.device && lists && plain
    }

    pub fn axis_values(&self) -> Option<&Arc<[AxisValue]>> {
        self.axis_values.as_ref()
    }

    /// Whether this is the ident of `name`, `device` and `list` (this very
    /// list: the reader compared the lists already).
    pub(crate) fn is_of(&self, name: &str, device: &StateDevice, list: &Arc<[AxisValue]>) -> bool {
        self.rare.is_none()
            && self.name == name
            && self.device == *device
            && self
                .axis_values
                .as_ref()
                .is_some_and(|l| Arc::ptr_eq(l, list))
    }
}

thread_local! {
    /// The ident of a state being read, shared until it is set.
    static UNNAMED: Arc<StateIdent> = Arc::default();
}

/// What few states have.
#[derive(Debug, Clone, Default)]
struct RareState {
    /// A truthy `skip_reason` (the only kind the comparison reads).
    skip_reason: Option<Scalar>,
    /// A Google Benchmark instance: its repetitions (never in NVBench files).
    gbench: Option<crate::loading::gbench::mapping::GbenchState>,
}

/// Written as an array instead of an object.
const POSITIONAL: u8 = 1;
/// No `axis_values` key.
const NO_AXIS_VALUES: u8 = 2;
/// A truthy `is_skipped` (the only kind the comparison reads).
const SKIPPED: u8 = 4;

/// A state object as the derived reader reads it (`State` keeps less).
#[derive(Deserialize)]
#[serde(rename = "State")]
struct StateFields {
    #[serde(deserialize_with = "state_name")]
    name: CompactString,
    #[serde(default = "missing_device", deserialize_with = "state_device")]
    device: StateDevice,
    /// `None` when the key is missing (the reference's KeyError where it
    /// reads the row), `Some(None)` for a JSON `null` (no axis values).
    #[serde(default, deserialize_with = "present_axis_values")]
    axis_values: Option<Option<Arc<[AxisValue]>>>,
    #[serde(default)]
    summaries: Option<Summaries>,
    #[serde(default)]
    is_skipped: Option<Scalar>,
    #[serde(default)]
    skip_reason: Option<Scalar>,
}

impl From<StateFields> for State {
    fn from(fields: StateFields) -> State {
        let mut state = State::unnamed(false);
        state.set_flag(NO_AXIS_VALUES, fields.axis_values.is_none());
        state.set_ident(Arc::new(StateIdent::new(
            fields.name,
            fields.device,
            fields.axis_values.flatten(),
        )));
        state.summaries = fields.summaries;
        state.set_skipped(fields.is_skipped.as_ref());
        state.set_skip_reason(fields.skip_reason);
        state
    }
}

impl State {
    /// A state with no name and nothing else yet (`positional`: written as
    /// an array).
    pub(crate) fn unnamed(positional: bool) -> State {
        State {
            ident: UNNAMED.with(Arc::clone),
            summaries: None,
            flags: if positional {
                POSITIONAL | NO_AXIS_VALUES
            } else {
                NO_AXIS_VALUES
            },
        }
    }

    fn set_flag(&mut self, flag: u8, on: bool) {
        self.flags = (self.flags & !flag) | if on { flag } else { 0 };
    }

    /// What few states have, in the state's own ident (set after it).
    fn rare_mut(&mut self) -> &mut RareState {
        Arc::make_mut(&mut self.ident)
            .rare
            .get_or_insert_with(Box::default)
    }

    /// Written as an array instead of an object.
    pub fn positional(&self) -> bool {
        self.flags & POSITIONAL != 0
    }

    /// The name, device and axis values.
    pub(crate) fn set_ident(&mut self, ident: Arc<StateIdent>) {
        self.ident = ident;
    }

    /// The ident, to share with a run that repeats the state.
    pub fn ident(&self) -> &Arc<StateIdent> {
        &self.ident
    }

    /// Whether the `axis_values` key is missing (`None`) or not
    /// (`Some(None)` for `null`, `Some(Some(list))`); the list is the ident's.
    pub(crate) fn set_axis_values_key(&mut self, present: bool) {
        self.set_flag(NO_AXIS_VALUES, !present);
    }

    pub fn name(&self) -> &str {
        &self.ident.name
    }

    pub fn device(&self) -> &StateDevice {
        &self.ident.device
    }

    /// Whether the state has an `axis_values` key (`null` included).
    pub fn has_axis_values_key(&self) -> bool {
        self.flags & NO_AXIS_VALUES == 0
    }

    /// The `is_skipped` value, if any: only its truthiness is kept.
    pub(crate) fn set_skipped(&mut self, is_skipped: Option<&Scalar>) {
        self.set_flag(SKIPPED, is_skipped.is_some_and(Scalar::truthy));
    }

    /// The `skip_reason` value, if any: only a truthy one is kept.
    pub(crate) fn set_skip_reason(&mut self, reason: Option<Scalar>) {
        match reason.filter(Scalar::truthy) {
            Some(reason) => self.rare_mut().skip_reason = Some(reason),
            None => {
                if self.skip_reason().is_some() {
                    self.rare_mut().skip_reason = None;
                }
            }
        }
    }

    /// A truthy `skip_reason`.
    pub fn skip_reason(&self) -> Option<&Scalar> {
        self.ident.rare.as_ref()?.skip_reason.as_ref()
    }

    pub(crate) fn set_gbench(&mut self, gbench: crate::loading::gbench::mapping::GbenchState) {
        self.rare_mut().gbench = Some(gbench);
    }

    /// A Google Benchmark instance's repetitions.
    pub fn gbench(&self) -> Option<&crate::loading::gbench::mapping::GbenchState> {
        self.ident.rare.as_ref()?.gbench.as_ref()
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StateVisitor;
        impl<'de> Visitor<'de> for StateVisitor {
            type Value = State;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("struct State")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<State, A::Error> {
                StateFields::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(State::from)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<State, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(State::unnamed(true))
            }
        }
        deserializer.deserialize_any(StateVisitor)
    }
}

impl State {
    pub fn axis_values(&self) -> &[AxisValue] {
        self.ident.axis_values.as_deref().unwrap_or(&[])
    }

    /// The axis values, shared (an empty list when there are none).
    pub fn shared_axis_values(&self) -> Arc<[AxisValue]> {
        match &self.ident.axis_values {
            Some(values) => Arc::clone(values),
            None => Arc::from(Vec::new()),
        }
    }

    pub fn is_skipped(&self) -> bool {
        self.flags & SKIPPED != 0
    }

    /// Takes `anchor`'s ident when it is identical to this state's, else
    /// its axis-value list when that is.
    fn share_ident_with(&mut self, anchor: &State) {
        if Arc::ptr_eq(&self.ident, &anchor.ident) {
            return;
        }
        if self.ident.identical(&anchor.ident) {
            self.ident = Arc::clone(&anchor.ident);
            return;
        }
        if let (Some(mine), Some(theirs)) = (&self.ident.axis_values, &anchor.ident.axis_values)
            && !Arc::ptr_eq(mine, theirs)
            && identical_lists(mine, theirs)
        {
            let list = Some(Arc::clone(theirs));
            Arc::make_mut(&mut self.ident).axis_values = list;
        }
    }

    /// `bool(state.get("summaries"))`.
    pub fn has_summaries(&self) -> bool {
        self.summaries.as_ref().is_some_and(Summaries::is_truthy)
    }
}

/// One entry of a state's `axis_values`: a shared handle (8 bytes), as
/// the few values of each axis repeat in every state of a cartesian
/// product; the schema reader hands out one handle per distinct entry of
/// a file (see `schema::walk`).
#[derive(Clone, PartialEq)]
pub struct AxisValue(Arc<AxisValueData>);

#[derive(Debug, PartialEq, Deserialize)]
#[serde(rename = "AxisValue")]
pub struct AxisValueData {
    pub name: CompactString,
    #[serde(rename = "type", default)]
    pub value_type: Option<Scalar>,
    #[serde(default, deserialize_with = "present")]
    pub value: Option<Scalar>,
}

impl AxisValueData {
    /// Equal and printed alike (a list shared for an equal one must print
    /// as its own: `-0.0 == 0.0`).
    pub fn identical(&self, other: &AxisValueData) -> bool {
        let same = |a: &Option<Scalar>, b: &Option<Scalar>| match (a, b) {
            (Some(a), Some(b)) => a.identical(b),
            (a, b) => a.is_none() && b.is_none(),
        };
        self.name == other.name
            && same(&self.value_type, &other.value_type)
            && same(&self.value, &other.value)
    }
}

/// Two axis-value lists that print alike, entry for entry.
pub fn identical_lists(a: &[AxisValue], b: &[AxisValue]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.shares(b) || a.identical(b))
}

impl AxisValue {
    pub fn new(name: CompactString, value_type: Option<Scalar>, value: Option<Scalar>) -> Self {
        AxisValue(Arc::new(AxisValueData {
            name,
            value_type,
            value,
        }))
    }

    /// The place of an axis a state has no value for, in a row aligned to
    /// its benchmark's axes: no type, no value, an empty cell.
    pub fn absent(name: CompactString) -> Self {
        AxisValue::new(name, None, None)
    }

    /// A place made by [`Self::absent`]. A value read from a file never is
    /// one once its cell was formatted: a value without `value` is an error.
    pub fn is_absent(&self) -> bool {
        self.value_type.is_none() && self.value.is_none()
    }

    /// Whether both are one handle (shared by the schema reader).
    pub fn shares(&self, other: &AxisValue) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for AxisValue {
    type Target = AxisValueData;
    fn deref(&self) -> &AxisValueData {
        &self.0
    }
}

/// As the entry itself: a shared handle and a copy print alike.
impl fmt::Debug for AxisValue {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<'de> Deserialize<'de> for AxisValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        AxisValueData::deserialize(deserializer).map(|data| AxisValue(Arc::new(data)))
    }
}

#[cfg(test)]
mod state_tests {
    use super::*;

    fn state(json: &str) -> State {
        serde_json::from_str(json).expect(json)
    }

    /// What the flags and the boxed rare fields keep reads as the values
    /// themselves would.
    #[test]
    fn flags_and_rare_fields_read_as_the_values() {
        let plain = state(r#"{"name": "a", "axis_values": [], "is_skipped": false}"#);
        assert!(plain.has_axis_values_key() && !plain.is_skipped() && !plain.positional());
        assert!(plain.skip_reason().is_none() && plain.ident.rare.is_none());
        let missing = state(r#"{"name": "a", "is_skipped": "yes", "skip_reason": 0}"#);
        assert!(!missing.has_axis_values_key() && missing.is_skipped());
        // A falsy reason is no reason (and takes no box).
        assert!(missing.skip_reason().is_none() && missing.ident.rare.is_none());
        let null = state(r#"{"name": "a", "axis_values": null, "skip_reason": "why"}"#);
        assert!(null.has_axis_values_key() && null.axis_values().is_empty());
        assert_eq!(
            null.skip_reason().map(Scalar::py_str).as_deref(),
            Some("why")
        );
        let skipped = state(r#"{"name": "a", "is_skipped": {"k": 1}}"#);
        assert!(skipped.is_skipped());
        assert!(state("[1, 2]").positional());
    }
}

#[cfg(test)]
mod sharing_tests {
    use super::*;

    fn root(states: &str) -> Root {
        let json =
            format!(r#"{{"benchmarks": [{{"name": "b", "devices": [0], "states": [{states}]}}]}}"#);
        serde_json::from_str(&json).expect("a root")
    }

    fn lists(root: &Root) -> Vec<&Arc<[AxisValue]>> {
        let states = root.benchmarks.as_ref().unwrap()[0].states();
        states
            .iter()
            .filter_map(|s| s.ident.axis_values.as_ref())
            .collect()
    }

    const X1: &str = r#"{"name": "a", "device": 0, "axis_values": [{"name": "X", "type": "int64", "value": 1}]}"#;
    const X2: &str = r#"{"name": "a", "device": 0, "axis_values": [{"name": "X", "type": "int64", "value": 2}]}"#;

    /// Equal lists at the same position are shared, others stay the run's
    /// own: what the states read does not change either way.
    #[test]
    fn sharing_with_the_anchor_changes_nothing_the_states_read() {
        let anchor = root(&[X1, X1, X2].join(","));
        let mut run = root(&[X1, X2, X2].join(","));
        let before: Vec<Vec<AxisValue>> = lists(&run).iter().map(|l| l.to_vec()).collect();
        run.share_idents_with(&anchor);
        let after: Vec<Vec<AxisValue>> = lists(&run).iter().map(|l| l.to_vec()).collect();
        assert_eq!(before, after);
    }

    /// `-0.0 == 0.0`, but a list shared for an equal one must print as the
    /// run's own: only identical lists are shared.
    #[test]
    fn equal_lists_that_print_apart_are_not_shared() {
        let zero = |value: &str| X1.replace(r#""value": 1"#, &format!(r#""value": {value}"#));
        let anchor = root(&zero("0.0"));
        let mut run = root(&zero("-0.0"));
        assert!(lists(&anchor)[0][..] == lists(&run)[0][..]);
        run.share_idents_with(&anchor);
        assert_eq!(
            lists(&run)[0][0]
                .value
                .as_ref()
                .map(Scalar::py_str)
                .as_deref(),
            Some("-0.0")
        );
    }

    /// A benchmark of another name at the same position keeps its values.
    #[test]
    fn another_benchmark_keeps_its_values() {
        let anchor = root(X1);
        let mut run = root(X2);
        run.benchmarks.as_mut().unwrap()[0].name = "c".into();
        run.share_idents_with(&anchor);
        let value = lists(&run)[0][0].value.as_ref().map(Scalar::py_str);
        assert_eq!(value.as_deref(), Some("2"));
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    /// Every state of every run is held until its group is compared: a
    /// byte here is a megabyte on a million states.
    #[test]
    fn parsed_states_stay_small() {
        assert_eq!(std::mem::size_of::<StateDevice>(), 16);
        assert_eq!(std::mem::size_of::<AxisValue>(), 8);
        assert_eq!(std::mem::size_of::<AxisValueData>(), 72);
        assert_eq!(std::mem::size_of::<Summaries>(), 24);
        assert_eq!(std::mem::size_of::<Option<Summaries>>(), 24);
        assert_eq!(std::mem::size_of::<State>(), 40);
    }
}
