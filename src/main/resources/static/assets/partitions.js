/* Partition pickers that fit a graph's partitioning: a date (daily, key YYYYMMDD), a date and hour (hourly,
 * key YYYYMMDDTHH), or free text (none). */
(function () {
  "use strict";
  const { h } = window.Swale;
  const p2 = (n) => String(n).padStart(2, "0");

  /** An input for one partition of the partitioning, preset to `at` (a Date) where the kind has a time. */
  function input(partitioning, attrs, at) {
    const d = at || new Date();
    const day = d.getUTCFullYear() + "-" + p2(d.getUTCMonth() + 1) + "-" + p2(d.getUTCDate());
    if (partitioning === "daily") return h("input", { type: "date", value: day, required: true, ...attrs });
    if (partitioning === "hourly") {
      return h("input", { type: "datetime-local", step: 3600, value: day + "T" + p2(d.getUTCHours()) + ":00", required: true, ...attrs });
    }
    return h("input", { type: "text", pattern: "[A-Za-z0-9_]{1,16}", maxlength: 16, placeholder: "partition key", required: true, ...attrs });
  }

  /** The partition key an input holds, or null when it holds none. */
  function key(partitioning, el) {
    const v = (el.value || "").trim();
    if (!v) return null;
    if (partitioning === "daily") return v.replaceAll("-", "").slice(0, 8);
    if (partitioning === "hourly") return v.slice(0, 10).replaceAll("-", "") + "T" + v.slice(11, 13);
    return v;
  }

  /** What a key looks like, for hints. */
  const format = (partitioning) => ({ daily: "YYYYMMDD (UTC)", hourly: "YYYYMMDDTHH (UTC)" })[partitioning] || "1 to 16 of [A-Za-z0-9_]";

  window.SwalePartitions = { input, key, format };
})();
