//! `--rerun-plan`: the states of the chosen statuses, collected as each
//! device pair is applied (every candidate's, once), and the plan written
//! at the end by the output owner; without it, the hint that names it.

use std::collections::HashSet;

use crate::deciding::report::{Report, StateRecord};
use crate::deciding::status::Status;
use crate::failure::Failure;
use crate::loading::model::Benchmark;
use crate::output::{Console, Document, Outputs};
use crate::personality::Personality;
use crate::rendering::rerun_plan::{
    Plan, PlanAxis, PlanBench, PlanContext, PlanFile, PlanState, PlanValue, render_plan,
};
use crate::settings::{Destination, Settings};
use crate::text::printable::printable;

/// A state taken: `(file, benchmark, devices, key, occurrence)`.
type TakenState = (usize, String, (i64, i64), String, u32);

/// The chosen states so far.
pub(super) struct RerunCollector {
    plan: Plan,
    statuses: Vec<Status>,
    /// The states taken: an N-way run meets a state once per candidate.
    taken: HashSet<TakenState>,
}

impl RerunCollector {
    /// A collector when `--rerun-plan` is given.
    pub(super) fn new(s: &Settings) -> Option<RerunCollector> {
        s.outputs.rerun_plan.as_ref()?;
        Some(RerunCollector {
            plan: Plan::default(),
            statuses: s.rerun_statuses.clone(),
            taken: HashSet::new(),
        })
    }

    /// Takes the state of `record` when its status is chosen. `file` is
    /// the file name of the group in directory mode; `run_names` the
    /// state's Google Benchmark run names.
    pub(super) fn add(
        &mut self,
        file: Option<&str>,
        bench: &Benchmark,
        record: &StateRecord,
        run_names: &[String],
    ) {
        if !self.statuses.contains(&record.comparison.status) {
            return;
        }
        self.plan.directories |= file.is_some();
        let file_index = self.file_index(file.unwrap_or(""));
        let key = (
            file_index,
            bench.name.clone(),
            record.pair.devices,
            record.state_key.to_string(),
            record.occurrence,
        );
        if !self.taken.insert(key) {
            return;
        }
        let benchmarks = &mut self.plan.files[file_index].benchmarks;
        let position = match benchmarks.iter().position(|b| b.name == bench.name) {
            Some(position) => position,
            None => {
                benchmarks.push(PlanBench {
                    name: bench.name.clone(),
                    axes: bench.axes.as_ref().map(|axes| {
                        axes.iter()
                            .map(|axis| PlanAxis {
                                name: axis.name.clone(),
                                kind: axis.axis_type.clone(),
                                flags: axis.flags.clone().unwrap_or_default(),
                            })
                            .collect()
                    }),
                    states: Vec::new(),
                });
                benchmarks.len() - 1
            }
        };
        benchmarks[position].states.push(PlanState {
            key: record.state_key.to_string(),
            devices: record.pair.devices,
            values: record
                .axis_values
                .iter()
                .map(|entry| PlanValue {
                    name: entry.name.to_string(),
                    value: entry.value.cloned(),
                })
                .collect(),
            repeated: record.occurrence_count > 1,
            run_names: run_names.to_vec(),
        });
    }

    fn file_index(&mut self, name: &str) -> usize {
        let files = &mut self.plan.files;
        match files.iter().position(|f| f.name == name) {
            Some(index) => index,
            None => {
                files.push(PlanFile {
                    name: name.to_string(),
                    benchmarks: Vec::new(),
                });
                files.len() - 1
            }
        }
    }

    /// Writes the plan to its destination; says on stderr what it left out.
    pub(super) fn write(
        &self,
        s: &Settings,
        outputs: &Outputs,
        console: &mut Console,
    ) -> Result<(), Failure> {
        let Some(destination) = &s.outputs.rerun_plan else {
            return Ok(());
        };
        let plan_path = match destination {
            Destination::Stdout => "plan.txt",
            other => other.file().unwrap_or("plan.txt"),
        };
        let context = PlanContext {
            plan_path,
            sides: s.inputs.sides().map(|side| &side.paths[..]).collect(),
            statuses: &self.statuses,
        };
        let rendered = render_plan(&self.plan, &context);
        outputs.write_document(
            Document {
                destination,
                text: &rendered.text,
            },
            console,
        )?;
        if rendered.left_out > 0 {
            console.warn(&format!(
                "--rerun-plan {}: {} of the {} chosen state(s) cannot be named on the benchmark's command line; the plan lists them in comments",
                printable(plan_path),
                rendered.left_out,
                rendered.chosen
            ));
        }
        Ok(())
    }
}

/// Without `--rerun-plan`, AMBG rows get a hint that names it.
pub(super) fn hint_without_plan(s: &Settings, reports: &[Report], console: &mut Console) {
    let undecided: usize = reports.iter().map(|r| r.tally.undecided).sum();
    if undecided == 0 || s.outputs.rerun_plan.is_some() || s.personality != Personality::Compare {
        return;
    }
    console.flush();
    crate::messages::hint(format_args!(
        "{undecided} state(s) are AMBG: --rerun-plan PATH writes the benchmark arguments that re-measure only them; run each build twice more with them and compare again, each side's reruns after its runs (docs/repetitions.md)"
    ));
}
