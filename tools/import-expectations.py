#!/usr/bin/env python3
"""What `liftledger import FILE` must give, computed independently.

Written from docs/IMPORT.md alone (no Swift source was read), so that a bug in the
importer is not copied here. Usage:

    tools/import-expectations.py FILE [--unit kg|lb] [--format strong|hevy|fitnotes]

Prints one JSON object (sorted keys): workouts, sets, warmupSets, volumeKilograms and,
per exercise name as written in the file, its sets, heaviest weight and best Epley
e1RM in kilograms. An error prints one line to standard error and exits with status 1.
"""
import argparse, csv, io, json, re, sys
from datetime import datetime, timedelta
from decimal import Decimal, getcontext

getcontext().prec = 60
LB = Decimal("0.45359237")          # kilograms per pound, exactly
MILLIONTH = Decimal("0.000001")
CENT = Decimal("0.01")

COLUMNS = {  # meaning -> accepted header names (trimmed, lowercased)
    "strong": {
        "date": ["date", "datum", "日期"], "name": ["workout name", "workout-name", "锻炼名称"],
        "duration": ["duration", "dauer", "时长", "duration (sec)"],
        "exercise": ["exercise name", "name der übung", "运动名称"],
        "kind": ["set order", "reihenfolge festlegen", "设置顺序"],
        "weight": ["weight", "gewicht", "重量", "weight (kg)", "weight (lbs)"], "unit": ["weight unit"],
        "reps": ["reps", "wiederh.", "次"], "rpe": ["rpe"],
        "distance": ["distance", "entfernung", "距离", "distance (meters)"],
        "seconds": ["seconds", "sekunden", "秒"]},
    "hevy": {
        "date": ["start_time"], "end": ["end_time"], "name": ["title"], "exercise": ["exercise_title"],
        "kind": ["set_type"], "weight": ["weight_kg", "weight_lbs"], "reps": ["reps"], "rpe": ["rpe"],
        "distance": ["distance_km", "distance_miles"], "seconds": ["duration_seconds"]},
    "fitnotes": {
        "date": ["date"], "exercise": ["exercise"], "weight": ["weight", "weight (lbs)", "weight (kgs)"],
        "unit": ["weight unit"], "reps": ["reps"], "distance": ["distance"],
        "distance_unit": ["distance unit"], "time": ["time"]},
}
REQUIRED = {"strong": ["date", "exercise", "kind", "weight", "reps"],
            "hevy": ["date", "name", "exercise", "kind", "weight", "reps"],
            "fitnotes": ["date", "exercise", "weight", "reps"]}
HEADER_UNIT = {"weight (kg)": "kg", "weight_kg": "kg", "weight (kgs)": "kg",
               "weight (lbs)": "lb", "weight_lbs": "lb"}
ROW_UNIT = {"kgs": "kg", "kg": "kg", "lbs": "lb", "lb": "lb"}
DATE_FORMAT = {"strong": "%Y-%m-%d %H:%M:%S", "hevy": "%d %b %Y, %H:%M", "fitnotes": "%Y-%m-%d"}
STRONG_KIND = {"w": "warmup", "warm_up": "warmup", "warmup": "warmup", "d": "dropset", "drop_set": "dropset",
               "dropset": "dropset", "f": "failure", "failure": "failure",
               "rest timer": "rest", "ruhezeit": "rest", "休息计时器": "rest", "rest_timer": "rest"}
HEVY_KIND = {"normal": "normal", "": "normal", "warmup": "warmup", "dropset": "dropset", "failure": "failure"}
NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
DURATION = [re.compile(r"(?=\S)(\d+h)?\s*(\d+m)?\s*(\d+s)?"), re.compile(r"(?=\S)(\d+小时)?(\d+分钟)?(\d+秒)?")]


class Refused(Exception):
    pass


def number(text, what):
    if not NUMBER.fullmatch(text):
        raise Refused(f"{what} {text!r} does not parse")
    return Decimal(text)


def fits(value, unit):
    """Read in `unit`, does the value land within a millionth of a two-decimal number in the other unit?"""
    other = value * LB if unit == "lb" else value / LB
    plain = other.quantize(CENT)
    return abs(other - plain) <= MILLIONTH, plain


def read_rows(path):
    with open(path, "rb") as f:
        data = f.read(256 * 1024 * 1024 + 1)
    if len(data) > 256 * 1024 * 1024:
        raise Refused("the file is larger than 256 MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Refused(f"the file is not UTF-8 ({e})")
    text = text.removeprefix("\ufeff")
    quoted, semicolons, commas, end = False, 0, 0, len(text)
    for i, ch in enumerate(text):   # the first line, outside quotes
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "\r\n":
            end = i
            break
        elif not quoted:
            semicolons += ch == ";"
            commas += ch == ","
    if len(text[:end].encode("utf-8")) > 64 * 1024:
        raise Refused("the header does not end within the first 64 KB")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=";" if semicolons > commas else ",", strict=True)
    start = 1
    try:
        for row in reader:
            if row:                   # blank lines are passed over
                yield start, row
            start = reader.line_num + 1
    except csv.Error as e:
        raise Refused(f"line {start}: {e}")


def main():
    parser = argparse.ArgumentParser(description="Expected figures of `liftledger import FILE`.")
    parser.add_argument("file")
    parser.add_argument("--unit", choices=["kg", "lb"])
    parser.add_argument("--format", choices=["strong", "hevy", "fitnotes"])
    args = parser.parse_args()

    rows = read_rows(args.file)
    header = [h.strip().lower() for h in next(rows, (0, None))[1] or []]
    layout = args.format or ("hevy" if {"set_type", "start_time"} <= set(header) else
                             "fitnotes" if "category" in header else
                             "strong" if set(header) & set(COLUMNS["strong"]["kind"]) else None)
    if layout is None:
        raise Refused("unknown layout: the header is not Strong's, Hevy's or FitNotes'")
    col = {}
    for meaning, names in COLUMNS[layout].items():
        found = [i for i, h in enumerate(header) if h in names]
        if found:
            col[meaning] = found[0]
    missing = [m for m in REQUIRED[layout] if m not in col]
    if missing:
        raise Refused(f"the {layout} header has no column for: {', '.join(missing)}")
    header_unit = HEADER_UNIT.get(header[col["weight"]])
    if header_unit is None and "unit" not in col and args.unit is None:
        raise Refused("the file carries no weight unit: --unit kg|lb is required")

    workouts, sets, warmups, volume, exercises = {}, 0, 0, Decimal(0), {}
    noisy = wrong = 0
    needed = max(col.values()) + 1
    for line, row in rows:
        if len(row) < needed:
            raise Refused(f"line {line}: {len(row)} fields where the header has {needed}")
        get = lambda m: (row[col[m]].strip() if m in col else "")
        try:
            start = datetime.strptime(get("date"), DATE_FORMAT[layout])
        except ValueError:
            raise Refused(f"line {line}: date {get('date')!r} does not parse")
        key = (get("date"), get("name"))
        workout_start = workouts.setdefault(key, start)
        try:
            if get("end"):
                datetime.strptime(get("end"), DATE_FORMAT["hevy"])
            d = get("duration")
            if d and not (NUMBER.fullmatch(d) or any(p.fullmatch(d) for p in DURATION)):
                raise Refused(f"duration {d!r} does not parse")
            for m in ("distance", "seconds"):
                if get(m):
                    number(get(m), m)
            if get("distance_unit").lower() not in ("", "m", "meters", "metres", "km", "mi", "miles", "ft", "yd"):
                raise Refused(f"distance unit {get('distance_unit')!r} does not parse")
            if get("time") and not re.fullmatch(r"\d+(:\d\d){1,2}|\d+(\.\d+)?", get("time")):
                raise Refused(f"time {get('time')!r} does not parse")
            kind = get("kind")
            if layout == "strong":
                kind = "normal" if re.fullmatch(r"\d+", kind) else STRONG_KIND.get(kind.lower())
            elif layout == "hevy":
                kind = HEVY_KIND.get(kind.lower())
            else:
                kind = "normal"
            if kind is None:
                raise Refused(f"set kind {get('kind')!r} does not parse")
            if kind == "rest":
                continue
            reps_text = get("reps")
            if reps_text and not re.fullmatch(r"\d+(\.0+)?", reps_text):
                raise Refused(f"reps {reps_text!r} do not parse")
            reps = int(Decimal(reps_text)) if reps_text else 0
            rpe = get("rpe")
            if rpe and not (NUMBER.fullmatch(rpe) and (2 * Decimal(rpe)) % 1 == 0 and 1 <= Decimal(rpe) <= 10):
                raise Refused(f"RPE {rpe!r} does not parse")
            kilograms = None
            if get("weight"):
                value = number(get("weight"), "weight")
                if value < 0:
                    raise Refused(f"weight {get('weight')!r} does not parse")
                unit, given = ROW_UNIT.get(get("unit").lower()), False
                if get("unit") and unit is None:
                    raise Refused(f"weight unit {get('unit')!r} does not parse")
                if unit is None:
                    unit = header_unit
                if unit is None:
                    unit, given = args.unit, True
                if unit is None:
                    raise Refused("the weight has no unit: --unit kg|lb is required")
                decimals = len(get("weight").partition(".")[2])
                if decimals > 4:
                    plain_here, converted = fits(value, unit)
                    other = "kg" if unit == "lb" else "lb"
                    if given:
                        noisy += 1
                        wrong += fits(value, other)[0] and not plain_here
                    own = value.quantize(CENT)
                    back = converted / LB if unit == "lb" else converted * LB   # the converted value, in `unit`
                    if plain_here and (abs(value - own) > MILLIONTH or abs(value - back) < abs(value - own)):
                        value, unit = converted, other                          # nearer as a conversion
                    elif abs(value - own) <= MILLIONTH:
                        value = own
                kilograms = value * LB if unit == "lb" else value
        except Refused as e:
            raise Refused(f"line {line}: {e}")

        sets += 1
        warmups += kind == "warmup"
        if kilograms is not None:
            volume += kilograms * reps
        name = row[col["exercise"]] if col["exercise"] < len(row) else ""
        stats = exercises.setdefault(name, {"sets": 0, "heaviest": None, "epley": None})
        stats["sets"] += 1
        implausible = (reps > 1000 or (kilograms or 0) > 1000 or workout_start < datetime(2000, 1, 1)
                       or workout_start > datetime.now() + timedelta(days=1))
        # An assisted exercise's weight is help (RULES.md): the least is the best, 0 too, and a set without a
        # weight had none.
        assisted = "assisted" in re.split(r"[^0-9a-z]+", name.lower())
        load = Decimal(0) if assisted and kilograms is None else kilograms
        if kind == "warmup" or reps < 1 or load is None or (load <= 0 and not assisted) or implausible:
            continue
        h = stats["heaviest"]
        if h is None or (load < h if assisted else load > h):
            stats["heaviest"] = load
        if not assisted and reps <= 12:
            e1rm = load if reps == 1 else load * (30 + reps) / 30
            if stats["epley"] is None or e1rm > stats["epley"]:
                stats["epley"] = e1rm

    if args.unit and wrong * 2 > noisy:
        other = "lb" if args.unit == "kg" else "kg"
        raise Refused(f"the unit is wrong: {wrong} of {noisy} noisy weights are plain in {other}, not {args.unit}")
    kg = lambda d: None if d is None else float(d.quantize(MILLIONTH))
    print(json.dumps({
        "workouts": len(workouts), "sets": sets, "warmupSets": warmups, "volumeKilograms": kg(volume),
        "exercises": {n: {"sets": s["sets"], "heaviestKilograms": kg(s["heaviest"]),
                          "bestEpleyKilograms": kg(s["epley"])} for n, s in exercises.items()},
    }, sort_keys=True, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    try:
        main()
    except (Refused, OSError) as e:
        print(f"import-expectations: {e}", file=sys.stderr)
        sys.exit(1)
