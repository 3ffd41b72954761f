// The reports written from a results directory's runs: the terminal summary, summary.csv,
// junit.xml and report.html.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runner/minimize/minimize_findings.h"
#include "runner/reports/aggregate.h"

namespace jsched::runner {

// What a program is expected to show: "bug", "deadlock", "any" (some finding), "none", or ""
// (unknown: any finding is a failure for CI).
using Expectations = std::map<std::string, std::string>;

struct ReportInput {
  std::string title;  // what was run
  std::vector<RunRecord> records;
  Expectations expect;
  uint64_t master_seed = 0;
  std::map<std::string, MinimizedFinding> minimized;  // by minimized_key
  std::string dir;                                    // the results directory, for links
};

// Text for the terminal: one table row per (program, strategy), then every distinct finding
// with its replay command.
std::string summary_text(const ReportInput& in, const std::vector<CellStats>& cells);
std::string summary_csv(const std::vector<CellStats>& cells);
std::string junit_xml(const ReportInput& in, const std::vector<CellStats>& cells);
std::string html_report(const ReportInput& in, const std::vector<CellStats>& cells);

// Whether a cell met its expectation. Runs with errors never make "none" met.
bool cell_ok(const CellStats& c, const std::string& expect);

// The exit status of `jsched run` over these records: 1 something found, else 3 if some run
// had an error (nothing found is then not an all-clear), else 0.
int batch_status(const std::vector<RunRecord>& records);
// The same for `jsched bench`: 1 an expectation not met by runs that ran, else 3 if some run
// had an error, else 0.
int bench_status(const std::vector<RunRecord>& records, const Expectations& expect);

// Writes summary.csv, junit.xml and report.html into `dir`; returns the summary text.
std::string write_reports(const std::string& dir, const ReportInput& in);

}  // namespace jsched::runner
