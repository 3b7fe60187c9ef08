// SPDX-License-Identifier: Apache-2.0
// The Python module's native part, rowscan._rowscan: a rowscan::session and its answers (docs/python.md).
// The package's rowscan/__init__.py gives them their Python shape (Decimal values, dicts, pandas).
//
// A query runs on a thread of its own while the calling thread, without the GIL, waits for it and asks
// Python every 50 ms whether a signal came (PyErr_CheckSignals): Ctrl-C sets the query's cancel flag,
// which the driver reads after each block, and the query's KeyboardInterrupt is raised once it stopped.
#include "rowscan/error.hpp"
#include "rowscan/lineitem/cents.hpp"
#include "rowscan/lineitem/format.hpp"
#include "rowscan/session.hpp"
#include "rowscan/stations/format.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

namespace py = pybind11;

namespace rowscan::python {
namespace {

/// Runs query(cancel flag) on a thread of its own, the GIL released, and raises KeyboardInterrupt (after
/// the query stopped) if Python saw a signal meanwhile; otherwise returns its answer or throws its error.
template <class Query>
auto run_interruptibly(Query const& query) -> decltype(query(nullptr)) {
  using answer_type = decltype(query(nullptr));
  std::atomic<bool> cancel{false};
  std::optional<answer_type> answer;
  std::exception_ptr failure;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  PyObject* type = nullptr;  // the signal's exception, held while the query stops
  PyObject* value = nullptr;
  PyObject* trace = nullptr;
  {
    py::gil_scoped_release without_gil;
    std::thread worker([&] {
      try {
        answer.emplace(query(&cancel));
      } catch (...) {
        failure = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
      finished.notify_all();
    });
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) {
      if (cancel.load()) continue;  // asked to stop already: wait for it
      lock.unlock();
      {
        py::gil_scoped_acquire with_gil;
        if (PyErr_CheckSignals() != 0) {
          PyErr_Fetch(&type, &value, &trace);
          cancel = true;
        }
      }
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (type != nullptr) {
    PyErr_Restore(type, value, trace);
    throw py::error_already_set();
  }
  if (failure) std::rethrow_exception(failure);
  return std::move(*answer);
}

/// Python's int of an unsigned 128-bit value.
py::int_ int_of(lineitem::uint128 value) {
  auto const high = static_cast<unsigned long long>(value >> 64);
  auto const low = static_cast<unsigned long long>(value);
  return py::reinterpret_steal<py::int_>(PyNumber_Or(py::int_(high).attr("__lshift__")(64).ptr(), py::int_(low).ptr()));
}

/// The first skipped lines' messages, and their count.
py::dict skipped_of(skipped_lines const& s) {
  py::list first;
  for (input_error const& e : s.first()) first.append(py::str(e.what()));
  py::dict out;
  out["count"] = s.count();
  out["first"] = first;
  out["summary"] = s.summary();
  return out;
}

py::bytes bytes_of(std::string const& text) { return py::bytes(text); }

void bind_answers(py::module_& m) {
  py::class_<stations::summary>(m, "StationsAnswer")
      .def("__len__", [](stations::summary const& s) { return s.stations.size(); })
      .def_readonly("bytes", &stations::summary::bytes)
      .def_readonly("lines", &stations::summary::lines)
      .def_property_readonly("skipped", [](stations::summary const& s) { return skipped_of(s.skipped); })
      .def(
          "text",
          [](stations::summary const& s, std::string const& format) {
            std::ostringstream out;
            stations::write(out, s.stations, stations::parse_output_format(format));
            return bytes_of(out.str());
          },
          py::arg("format") = "1brc", "The CLI's standard output for --format FORMAT, as bytes.")
      .def(
          "columns",
          [](stations::summary const& s) {
            py::list names, mins, means, maxes, sums, counts;
            for (stations::station_summary const& row : s.stations) {
              names.append(py::bytes(row.name));
              mins.append(row.min);
              means.append(stations::mean_tenths(row));
              maxes.append(row.max);
              sums.append(row.sum);
              counts.append(row.count);
            }
            py::dict out;
            out["name"] = names;
            out["min"] = mins;
            out["mean"] = means;
            out["max"] = maxes;
            out["count"] = counts;
            out["sum"] = sums;
            return out;
          },
          "Names as bytes; min, mean, max and sum as integer tenths; count.");

  py::class_<lineitem::summary>(m, "LineitemAnswer")
      .def("__len__", [](lineitem::summary const& s) { return s.answers.size(); })
      .def_readonly("bytes", &lineitem::summary::bytes)
      .def_readonly("lines", &lineitem::summary::lines)
      .def_readonly("rows", &lineitem::summary::rows)
      .def_property_readonly("skipped", [](lineitem::summary const& s) { return skipped_of(s.skipped); })
      .def(
          "text",
          [](lineitem::summary const& s, std::string const& format) {
            if (format == "text") return bytes_of(lineitem::format_text(s));
            if (format == "json") return bytes_of(lineitem::format_json(s));
            throw usage_error("format: '" + format + "' is not text or json");
          },
          py::arg("format") = "text", "The CLI's standard output for --format FORMAT, as bytes.")
      .def(
          "columns",
          [](lineitem::summary const& s) {
            py::list below, sums, rows;
            for (lineitem::threshold_answer const& a : s.answers) {
              below.append(a.suppkey_below);
              sums.append(int_of(a.sum_cents));
              rows.append(a.rows);
            }
            py::dict out;
            out["suppkey_below"] = below;
            out["sum"] = sums;
            out["rows"] = rows;
            return out;
          },
          "Thresholds; sums as integer cents; matched rows.");
}

/// A query's settings from the Python call.
query_settings settings_of(bool recursive, bool crlf) {
  query_settings s;
  s.inputs.recursive = recursive;
  s.inputs.crlf = crlf;
  return s;
}

/// Runs one query of a session (query(settings) -> answer) with Ctrl-C watched, and returns the
/// answer with the warnings the run printed.
template <class Query>
py::tuple interruptible_query(bool recursive, bool crlf, Query&& query) {
  std::string warnings;
  auto answer = run_interruptibly([&](std::atomic<bool> const* cancel) {
    query_settings q = settings_of(recursive, crlf);
    q.cancel = cancel;
    q.warnings = &warnings;
    return query(q);
  });
  return py::make_tuple(std::move(answer), warnings);
}

}  // namespace
}  // namespace rowscan::python

PYBIND11_MODULE(_rowscan, m) {
  using namespace rowscan;
  using namespace rowscan::python;
  m.doc() = "rowscan's native part; use the rowscan package (docs/python.md).";
  // Registered base first: pybind11 tries the last registered first, so input errors map to InputError.
  static py::exception<error> const base(m, "Error", PyExc_RuntimeError);
  static py::exception<input_error> const input(m, "InputError", base.ptr());
  static py::exception<usage_error> const usage(m, "UsageError", PyExc_ValueError);
  // NOLINTNEXTLINE(performance-unnecessary-value-param): pybind11's translator is void(*)(std::exception_ptr)
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (input_error const& e) {
      PyErr_SetString(input.ptr(), e.what());
    } catch (usage_error const& e) {
      PyErr_SetString(usage.ptr(), e.what());
    } catch (error const& e) {
      PyErr_SetString(base.ptr(), e.what());
    }
  });

  bind_answers(m);

  py::class_<session>(m, "Session")
      .def(py::init([](std::string const& devices, std::optional<std::uint64_t> cache_bytes, unsigned threads) {
             session_options o;
             o.devices = devices;
             o.cache_bytes = cache_bytes;
             o.threads = threads;
             return std::make_unique<session>(o);
           }),
           py::arg("devices") = "auto", py::arg("cache_bytes") = py::none(), py::arg("threads") = 0)
      .def_property_readonly("device", [](session const& s) { return s.on().on_gpu() ? "gpu" : "cpu"; })
      .def_property_readonly("system", [](session const& s) { return s.on().system_name(); })
      .def(
          "stations",
          [](session& s, std::vector<std::string> const& paths, bool skip_invalid, bool recursive, bool crlf,
             std::size_t chunk_size) {
            stations::summarize_options o;
            o.skip_invalid = skip_invalid;
            o.chunk_size = chunk_size;
            return interruptible_query(recursive, crlf,
                                       [&](query_settings const& q) { return s.stations(paths, o, q); });
          },
          py::arg("paths"), py::arg("skip_invalid") = false, py::arg("recursive") = false, py::arg("crlf") = false,
          py::arg("chunk_size") = 0)
      .def(
          "lineitem",
          [](session& s, std::vector<std::string> const& paths, std::vector<std::uint64_t> const& suppkey_below,
             bool skip_invalid, bool recursive, bool crlf, std::size_t chunk_size) {
            lineitem::summarize_options o;
            o.suppkey_below = suppkey_below;
            o.skip_invalid = skip_invalid;
            o.chunk_size = chunk_size;
            return interruptible_query(recursive, crlf,
                                       [&](query_settings const& q) { return s.lineitem(paths, o, q); });
          },
          py::arg("paths"), py::arg("suppkey_below"), py::arg("skip_invalid") = false, py::arg("recursive") = false,
          py::arg("crlf") = false, py::arg("chunk_size") = 0)
      .def("cache_info",
           [](session const& s) {
             resident::cache_figures const f = s.cache();
             py::dict out;
             out["budget_bytes"] = f.budget_bytes;
             out["bytes"] = f.bytes;
             out["entries"] = f.entries;
             out["hits"] = f.hits;
             out["misses"] = f.misses;
             out["loads"] = f.loads;
             out["loaded_bytes"] = f.loaded_bytes;
             out["stale"] = f.stale;
             out["evictions"] = f.evictions;
             out["discarded"] = f.discarded;
             out["uncached"] = f.uncached;
             return out;
           })
      .def("clear_cache", &session::clear_cache);
  m.def("default_cache_bytes", [] { return default_cache_bytes(); });
}
