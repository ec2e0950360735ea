"""The agreement report as files: one table per CSV file, the tables together in a zip
(docs/agreement-csv.md). One table per file, so that `csv.DictReader` or `pandas.read_csv`
reads each as it is: the report's sections (pairs, annotators vs gold, validation, what is
left out) have different columns, and one file holding them one after the other was read
wrong from the first row of the second table on."""

from __future__ import annotations

import csv
import io
import zipfile
from typing import Any

from annotation.validation_hooks import validation_csv_write
from corefscore.scoring import api
from reporting.selectors.agreement_attributes import attribute_csv_rows
from reporting.selectors.agreement_gold import vs_gold_csv_write

LEFT_OUT_HEADER = ["left_out", "topic", "metric", "reason"]


def agreement_tables(result: dict[str, Any]) -> dict[str, str]:
    """File name -> CSV text of one table: `agreement.csv` (the scorer's `iaa --csv` table),
    `agreement_vs_gold.csv` (when some annotator has gold to compare with),
    `agreement_validation.csv` (validation projects), `agreement_attributes.csv` (projects
    with link attributes) and `agreement_left_out.csv`."""
    tables = {"agreement.csv": _text(lambda stream: api.write_iaa_csv(result, stream))}
    if result.get("vs_gold", {}).get("annotators"):
        tables["agreement_vs_gold.csv"] = _text(
            lambda stream: vs_gold_csv_write(result["vs_gold"], stream)
        )
    if "validation" in result:
        # (the validation app writes its section after an empty line: a table of its own)
        text = _text(lambda stream: validation_csv_write(result["validation"], stream))
        tables["agreement_validation.csv"] = text.lstrip("\n")
    if result.get("attributes"):
        tables["agreement_attributes.csv"] = _text(
            lambda stream: csv.writer(stream, lineterminator="\n").writerows(
                attribute_csv_rows(result["attributes"])
            )
        )
    tables["agreement_left_out.csv"] = _text(
        lambda stream: csv.writer(stream, lineterminator="\n").writerows(left_out_rows(result))
    )
    return tables


def left_out_rows(result: dict[str, Any]) -> list[list[str]]:
    """What the report leaves out, a row per topic and why (`reporting.domain.
    agreement_coverage`): practice topics, topics with fewer than two submissions, the
    topics where a metric is undefined, and the metrics shown without an interval."""
    rows = [list(LEFT_OUT_HEADER)]
    left_out = result.get("left_out", {})
    for what in ("practice", "unscored"):
        part = left_out.get(what, {"topics": []})
        rows += [[what, topic, "", part["reason"]] for topic in part["topics"]]
    for metric, part in left_out.get("undefined", {}).items():
        rows += [["undefined", topic, metric, part["reason"]] for topic in part["topics"]]
    for metric, overall in result.get("overall", {}).items():
        if overall.get("interval_note"):
            rows.append(["interval", "", metric, overall["interval_note"]])
    return rows


def agreement_zip(result: dict[str, Any]) -> bytes:
    """The tables of :func:`agreement_tables` in one zip; the same report gives the same
    bytes (each member dated 1980-01-01, the zip format's first day, not the clock)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in agreement_tables(result).items():
            member = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            member.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(member, text)
    return buffer.getvalue()


def _text(write) -> str:
    stream = io.StringIO()
    write(stream)
    return stream.getvalue()
