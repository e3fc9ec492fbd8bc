#!/usr/bin/python3
"""Recompute `liftledger status --json` from the lines of `liftledger events --json`.

Written from docs/JSON.md ("status --json") and docs/FORMAT.md alone, as an independent check.
Usage: session-status.py --now RFC3339 [--stale-after SECONDS] [EVENTS_FILE]   (or --self-test)
"""
import argparse, json, re, sys
from decimal import Decimal, getcontext

getcontext().prec = 200          # exact: values carry at most 18 fractional digits
LB = Decimal("0.45359237")       # kg per lb
US = 1_000_000                   # microseconds per second
MAX_KG = Decimal(1000)           # the heaviest set that may be logged: no heavier one is suggested
WORKOUT = re.compile(r"workout-[0-9]+\Z")
ENDED = ("WorkoutFinished", "WorkoutDiscarded", "WorkoutDeleted")

# --- instants: integer microseconds since 1970-01-01T00:00:00Z, proleptic Gregorian calendar ---
def days_from_civil(y, m, d):
    y -= m <= 2
    era, yoe = divmod(y, 400)
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468

def civil_from_days(z):
    era, doe = divmod(z + 719468, 146097)
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    m = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (m <= 2), m, doy - (153 * mp + 2) // 5 + 1

RFC3339 = re.compile(r"([+-]?\d{4,})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:[Zz]|([+-])(\d\d):(\d\d))\Z")

def parse_time(s):
    m = RFC3339.match(s)
    if not m:
        raise ValueError("not an RFC 3339 instant: %r" % s)
    y, mo, d, h, mi, se = (int(g) for g in m.groups()[:6])
    t = ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60 + se
    if m.group(8):  # a numeric offset: local time minus offset is UTC
        t -= (1 if m.group(8) == "+" else -1) * (int(m.group(9)) * 60 + int(m.group(10))) * 60
    return t * US + int(((m.group(7) or "") + "000000")[:6])  # digits past the sixth are dropped

def fmt_time(us):
    days, rest = divmod(us, 86400 * US)
    y, mo, d = civil_from_days(days)
    secs, frac = divmod(rest, US)
    year = "%04d" % y if 0 <= y <= 9999 else "%+05d" % y
    return "%s-%02d-%02dT%02d:%02d:%02d.%06dZ" % (year, mo, d, secs // 3600, secs // 60 % 60, secs % 60, frac)

# --- weights ---
def plain(d):
    """A decimal in plain notation, no trailing zeros, no trailing point."""
    s = format(d.normalize(), "f")
    return "0" if s == "-0" else s

def weight(w):
    if w is None:
        return None  # body weight
    kg = Decimal(w["value"]) * (LB if w["unit"] == "lb" else 1)
    return {"value": w["value"], "unit": w["unit"], "kilograms": plain(kg)}

# --- folding one workout stream: events are (type, occurredAt µs, data) in stream order ---
def fold(events):
    w = dict(started=None, name="", routine=None, ended=set(), ex=[], exname={}, sets={}, hidden=set(),
             pause=None, paused=0, rest=None, last=None)
    # WorkoutEdited's startedAt: "the whole workout moves with it". Each edit moves the events before it (by the
    # new start minus the start then), so an event moves by (final start) - (start as of that event).
    final = cur = None
    for typ, t, d in events:
        if typ == "WorkoutStarted" and final is None: final = t
        elif typ == "WorkoutEdited" and "startedAt" in d and final is not None: final = parse_time(d["startedAt"])
    for typ, t, d in events:
        if typ == "WorkoutStarted" and cur is None: cur = t
        elif typ == "WorkoutEdited" and "startedAt" in d and cur is not None: cur = parse_time(d["startedAt"])
        t += final - cur if cur is not None else 0  # payload instants (a rest timer's endsAt) are not moved
        w["last"] = t if w["last"] is None else max(w["last"], t)
        if typ == "WorkoutStarted" and w["started"] is None:
            w.update(started=t, name=d.get("name", ""), routine=d.get("routineId"))
        elif typ == "WorkoutEdited":
            if "name" in d: w["name"] = d["name"]
        elif typ in ENDED:
            w["ended"].add(typ)
            if typ == "WorkoutFinished": w["rest"] = None
        elif typ == "WorkoutRestored":  # a deleted workout counts again; a discarded one given finishedAt finishes
            w["ended"].discard("WorkoutDeleted")
            if "finishedAt" in d and "WorkoutDiscarded" in w["ended"]:
                w["ended"].discard("WorkoutDiscarded"); w["ended"].add("WorkoutFinished"); w["rest"] = None
        elif typ == "WorkoutPaused":
            if w["pause"] is None: w["pause"] = t
        elif typ == "WorkoutResumed":
            if w["pause"] is not None: w["paused"] += t - w["pause"]; w["pause"] = None
        elif typ == "ExerciseAdded":
            if d["exerciseId"] not in w["ex"]:
                w["ex"].append(d["exerciseId"]); w["exname"][d["exerciseId"]] = d.get("exerciseName", "")
        elif typ == "ExerciseRemoved":
            if d["exerciseId"] in w["ex"]: w["ex"].remove(d["exerciseId"])
        elif typ == "ExerciseMoved":   # an exercise not in the workout is not added by a move
            if d["exerciseId"] in w["ex"]:
                w["ex"].remove(d["exerciseId"]); w["ex"].insert(d.get("toIndex", 0), d["exerciseId"])
        elif typ == "SetLogged":       # dict order = the order the sets were logged
            w["sets"].setdefault(d["setNumber"], dict(d, loggedAt=t))
        elif typ == "SetCorrected":    # all fields replaced (absent ones become none/default)
            if d["setNumber"] in w["sets"]:
                w["sets"][d["setNumber"]] = dict(d, loggedAt=w["sets"][d["setNumber"]]["loggedAt"])
        elif typ == "SetRemoved":
            w["hidden"].add(d["setNumber"])
        elif typ == "RestTimerStarted":
            w["rest"] = dict(startedAt=t, durationSeconds=d.get("durationSeconds", 0),
                             endsAt=parse_time(d["endsAt"]), afterSet=d.get("afterSet"))
        elif typ == "RestTimerExtended":  # only endsAt changes; a closed timer stays closed
            if w["rest"]: w["rest"]["endsAt"] = parse_time(d["endsAt"])
        elif typ in ("RestTimerSkipped", "RestTimerFinished"):
            w["rest"] = None
    return w

def sets_of(w, ex_id):
    return [{"set": n, "exerciseId": s["exerciseId"], "weight": weight(s.get("weight")), "reps": s.get("reps", 0),
             "kind": s.get("kind", "normal"), "rpe": s.get("rpe"), "note": s.get("note"), "loggedAt": fmt_time(s["loggedAt"]),
             "durationSeconds": s.get("durationSeconds"), "distanceMeters": s.get("distanceMeters")}
            for n, s in w["sets"].items() if n not in w["hidden"] and s["exerciseId"] == ex_id]

def routine_targets(streams):
    """routine id -> {exerciseId: {"sets", "minimumReps", "maximumReps", "restSeconds"}}, from the routines' streams
    (latest state)."""
    out = {}
    for sid, events in streams.items():
        if not sid.startswith("routine-"):
            continue
        ids, targets = {sid[len("routine-"):]}, {}
        for typ, _, d in events:
            if typ == "RoutineCreated": ids.add(d["routineId"])
            elif typ == "RoutineExerciseAdded":
                targets[d["exerciseId"]] = {"sets": d.get("targetSets", 0), "minimumReps": d.get("minimumReps", 0),
                                            "maximumReps": d.get("maximumReps", 0), "restSeconds": d.get("restSeconds", 0)}
            elif typ == "RoutineExerciseRemoved": targets.pop(d["exerciseId"], None)
        out.update((i, targets) for i in ids)
    return out

def suggest(current, last, target, assisted=False):
    lifted = lambda s: s["kind"] != "warmup" and s["reps"] > 0  # a set of 0 reps (a missed lift) is not repeated
    repeatable = lambda s: lifted(s) and s["kind"] != "drop"  # nor a drop set, lighter by design
    if target is not None and target["sets"] > 0 and sum(1 for s in current if lifted(s)) >= target["sets"]:
        return None  # the routine's sets are done
    done = [s for s in current if repeatable(s)]
    if done:
        s = done[-1]
        return {"weight": s["weight"], "reps": s["reps"], "reason": "repeat set %d" % s["set"]}
    work = [s for s in last["sets"] if s["kind"] != "warmup"] if last else []  # a miss did not reach the top
    if not any(repeatable(s) for s in work):
        return None
    s = next(s for s in work if repeatable(s))
    if target is None or target["maximumReps"] == 0:
        return {"weight": s["weight"], "reps": s["reps"], "reason": "same as last time"}
    lo, hi = target["minimumReps"], target["maximumReps"]
    every = all(x["reps"] >= hi for x in work)
    fewer = len(work) < target["sets"]  # progress needs the routine's sets done, each at the top
    if s["weight"] is not None and every and not fewer:
        unit, value = s["weight"]["unit"], Decimal(s["weight"]["value"])
        step = Decimal("5") if unit == "lb" else Decimal("2.5")
        reached = "every set reached %d reps last time" % hi
        if not assisted and (value + step) * (LB if unit == "lb" else 1) <= MAX_KG:
            new = weight({"value": plain(value + step), "unit": unit})
            return {"weight": new, "reps": lo, "reason": "%s: add %s %s" % (reached, step, unit)}
        if assisted and value > 0:  # an assisted exercise's weight is help: as much comes off, down to none
            taken = min(step, value)
            new = weight({"value": plain(value - taken), "unit": unit})
            return {"weight": new, "reps": lo, "reason": "%s: take %s %s of help off" % (reached, plain(taken), unit)}
    if s["reps"] >= hi:  # the first set at the top already, and no weight changes
        why = ("not every set reached %d reps last time" % hi if not every else
               "%d of %d sets last time" % (len(work), target["sets"]) if fewer else "every set reached %d reps last time" % hi)
        return {"weight": s["weight"], "reps": hi, "reason": why + ": the same again"}
    return {"weight": s["weight"], "reps": s["reps"] + 1, "reason": "one more rep than last time, up to %d" % hi}

def status(records, now, stale_after=7200):
    streams, started = {}, []  # started: workout streams in the journal order of their WorkoutStarted
    for r in records:
        if "data" not in r:
            continue
        streams.setdefault(r["streamId"], []).append((r["type"], parse_time(r["occurredAt"]), r["data"]))
        if r["type"] == "WorkoutStarted" and WORKOUT.match(r["streamId"]) and r["streamId"] not in started:
            started.append(r["streamId"])
    workouts = {sid: fold(streams[sid]) for sid in started}
    open_ = [sid for sid in started if not workouts[sid]["ended"]]
    if not open_:
        return {"active": False}
    wid = open_[-1]
    w = workouts[wid]
    targets = routine_targets(streams).get(w["routine"], {}) if w["routine"] is not None else {}

    def last_time(ex_id):  # most recent finished, not deleted/discarded, other workout with counted sets
        best = None
        for sid in started:
            o = workouts[sid]
            if sid == wid or "WorkoutFinished" not in o["ended"] or len(o["ended"]) > 1 \
                    or o["started"] > w["started"] or ex_id not in o["ex"]:
                continue
            sets = sets_of(o, ex_id)
            if sets and (best is None or o["started"] >= best["_t"]):  # tie: the later in the journal
                best = {"workoutId": sid, "startedAt": fmt_time(o["started"]), "sets": sets, "_t": o["started"]}
        if best: del best["_t"]
        return best

    exercises = []
    for ex_id in w["ex"]:
        sets, last = sets_of(w, ex_id), last_time(ex_id)
        exercises.append({"exerciseId": ex_id, "name": w["exname"][ex_id], "sets": sets, "lastTime": last,
                          "suggestedNext": suggest(sets, last, targets.get(ex_id),
                                                   "assisted" in re.findall(r"[a-z0-9]+", w["exname"][ex_id].lower())),
                          "target": targets.get(ex_id)})
    r = w["rest"]
    rest = None if r is None else {
        "startedAt": fmt_time(r["startedAt"]), "durationSeconds": r["durationSeconds"], "endsAt": fmt_time(r["endsAt"]),
        "remainingSeconds": max(0, -((now - r["endsAt"]) // US)), "afterSet": r["afterSet"]}
    end = w["pause"] if w["pause"] is not None else now
    stale = now - w["last"] > stale_after * US
    # finish refuses a workout with no set that counts (one of an exercise still in the workout, not removed).
    has_sets = any(n not in w["hidden"] and s["exerciseId"] in w["ex"] for n, s in w["sets"].items())
    return {"active": True, "workoutId": wid, "name": w["name"], "routineId": w["routine"],
            "startedAt": fmt_time(w["started"]), "now": fmt_time(now), "paused": w["pause"] is not None,
            "elapsedSeconds": max(0, (end - w["started"] - w["paused"]) // US), "lastActivityAt": fmt_time(w["last"]),
            "staleAfterSeconds": stale_after, "stale": stale, "choices": (["finish", "discard"] if has_sets else ["discard"]) if stale else [],
            "rest": rest, "exercises": exercises}

def self_test():
    S = parse_time("2026-11-22T18:00:00.000000Z")
    recs = []
    def ev(sid, typ, sec, **data): recs.append({"streamId": sid, "type": typ, "occurredAt": fmt_time(S + int(sec * US)), "data": data})
    def st(n, ex, value, unit, reps, kind="normal", **more):
        return dict(setNumber=n, exerciseId=ex, weight=value and {"value": value, "unit": unit}, reps=reps, kind=kind, **more)
    ev("routine-legs", "RoutineCreated", -9e5, routineId="legs", name="Legs")
    for ex, lo, hi in (("squat", 5, 8), ("bench", 3, 6), ("ohp", 4, 6), ("deadlift", 5, 0), ("dip", 5, 10), ("pulldown", 8, 10),
                       ("apu", 5, 8), ("band", 5, 8)):
        ev("routine-legs", "RoutineExerciseAdded", -9e5, exerciseId=ex, minimumReps=lo, maximumReps=hi)
    ev("routine-legs", "RoutineExerciseAdded", -9e5, exerciseId="hack", targetSets=3, minimumReps=5, maximumReps=8, restSeconds=90)
    ev("routine-legs", "RoutineExerciseAdded", -9e5, exerciseId="heavy", minimumReps=3, maximumReps=5)
    ev("workout-1", "WorkoutStarted", -86400, name="Legs", routineId="legs")
    for ex in ("squat", "bench", "ohp", "deadlift", "row", "dip", "pulldown"): ev("workout-1", "ExerciseAdded", -86400, exerciseId=ex, exerciseName=ex)
    for ex, name in (("apu", "Assisted Pull-Up Machine"), ("band", "Band Assisted Pull-Up")):
        ev("workout-1", "ExerciseAdded", -86400, exerciseId=ex, exerciseName=name)
    for args in ((1, "squat", "60", "kg", 5, "warmup"), (2, "squat", "100", "kg", 8), (3, "squat", "100", "kg", 6),
                 (4, "bench", "225", "lb", 5), (5, "squat", "100", "kg", 3), (6, "ohp", "95", "lb", 6),
                 (7, "deadlift", "140", "kg", 5), (8, "row", "70", "kg", 10), (9, "dip", None, None, 10),
                 (11, "pulldown", "50", "kg", 10), (12, "pulldown", "50", "kg", 0)):  # a miss: not every set reached 10
        ev("workout-1", "SetLogged", -86000 + args[0], **st(*args))
    ev("workout-1", "SetLogged", -85990, **st(13, "apu", "40", "kg", 8))  # 8 of 5-8: 2.5 kg of help off, to 37.5
    ev("workout-1", "SetLogged", -85989, **st(14, "band", "2", "kg", 8))  # 2 kg of help, less than 2.5: all off
    for ex in ("hack", "heavy"): ev("workout-1", "ExerciseAdded", -85989, exerciseId=ex, exerciseName=ex)
    ev("workout-1", "SetLogged", -85988, **st(15, "hack", "80", "kg", 8))     # 1 of the routine's 3 sets: no more weight
    ev("workout-1", "SetLogged", -85987, **st(16, "heavy", "999", "kg", 5))   # 1001.5 kg would pass the 1000 kg a set may have
    ev("workout-1", "SetCorrected", -85000, **st(3, "squat", "100", "kg", 8))  # 6 -> 8 reps
    ev("workout-1", "SetRemoved", -85000, setNumber=5)
    ev("workout-1", "ExerciseRemoved", -85000, exerciseId="row")
    ev("workout-1", "WorkoutFinished", -80000)
    ev("workout-1", "WorkoutEdited", -79000, startedAt=fmt_time(S - 90000 * US))  # moves the workout 3600 s earlier
    ev("workout-1", "SetLogged", -78000, **st(10, "deadlift", "150", "kg", 5))    # a late set: not moved
    ev("workout-2", "WorkoutStarted", -3600, name="Later, deleted")
    ev("workout-2", "ExerciseAdded", -3600, exerciseId="squat")
    ev("workout-2", "SetLogged", -3500, **st(1, "squat", "20", "kg", 1))
    ev("workout-2", "WorkoutFinished", -3000); ev("workout-2", "WorkoutDeleted", -2000)
    ev("workout-3", "WorkoutStarted", 0, name="Legs", routineId="legs")
    for ex in ("squat", "bench", "ohp", "deadlift", "row", "curl", "press", "dip", "pulldown"): ev("workout-3", "ExerciseAdded", 1, exerciseId=ex, exerciseName=ex)
    for ex, name in (("apu", "Assisted Pull-Up Machine"), ("band", "Band Assisted Pull-Up")):
        ev("workout-3", "ExerciseAdded", 1, exerciseId=ex, exerciseName=name)
    for ex in ("hack", "heavy"): ev("workout-3", "ExerciseAdded", 1, exerciseId=ex, exerciseName=ex)
    ev("workout-3", "ExerciseMoved", 2, exerciseId="press", toIndex=99)
    ev("workout-4", "WorkoutStarted", 500); ev("workout-4", "ExerciseAdded", 500, exerciseId="squat")  # started later
    ev("workout-4", "SetLogged", 501, **st(1, "squat", "200", "kg", 1)); ev("workout-4", "WorkoutFinished", 502)
    ev("workout-3", "WorkoutPaused", 600); ev("workout-3", "WorkoutPaused", 700); ev("workout-3", "WorkoutResumed", 900.5)
    ev("workout-3", "SetLogged", 1000, **st(1, "press", "20", "kg", 10, "warmup"))
    ev("workout-3", "SetLogged", 1100, **st(2, "press", "40", "kg", 10, rpe=8.5))
    ev("workout-3", "SetLogged", 1150, **st(3, "press", "40", "kg", 9))
    ev("workout-3", "SetCorrected", 1160, **st(2, "press", "42.5", "kg", 9))
    ev("workout-3", "SetRemoved", 1170, setNumber=3)
    ev("workout-3", "SetLogged", 1180, **st(4, "curl", "20", "kg", 0, durationSeconds=30, distanceMeters="12.5"))  # a miss
    ev("workout-3", "RestTimerStarted", 1200, durationSeconds=90, endsAt=fmt_time(S + 1290 * US), afterSet=2)
    ev("workout-3", "RestTimerExtended", 1210, bySeconds=30, endsAt=fmt_time(S + 1320 * US))
    out = status(recs, S + 1250250000)
    assert (out["elapsedSeconds"], out["paused"], out["stale"], out["choices"]) == (949, False, False, []), out
    assert out["rest"] == {"startedAt": "2026-11-22T18:20:00.000000Z", "durationSeconds": 90, "endsAt":
                           "2026-11-22T18:22:00.000000Z", "remainingSeconds": 70, "afterSet": 2}, out["rest"]
    assert out["lastActivityAt"] == "2026-11-22T18:20:10.000000Z"
    ex = {e["exerciseId"]: e for e in out["exercises"]}
    assert list(ex)[-1] == "press" and [s["set"] for s in ex["press"]["sets"]] == [1, 2]
    assert ex["press"]["sets"][1]["loggedAt"] == "2026-11-22T18:18:20.000000Z" and ex["press"]["sets"][1]["rpe"] is None
    W, sug = (lambda v, u, kg: {"value": v, "unit": u, "kilograms": kg}), {k: e["suggestedNext"] for k, e in ex.items()}
    assert sug["press"] == {"weight": W("42.5", "kg", "42.5"), "reps": 9, "reason": "repeat set 2"}
    assert ex["squat"]["lastTime"]["workoutId"] == "workout-1" and [s["set"] for s in ex["squat"]["lastTime"]["sets"]] == [1, 2, 3]
    assert ex["squat"]["lastTime"]["startedAt"] == fmt_time(S - 90000 * US) == "2026-11-21T17:00:00.000000Z"
    assert [s["loggedAt"] for s in ex["deadlift"]["lastTime"]["sets"]] == [fmt_time(S - 89593 * US), fmt_time(S - 78000 * US)]
    assert sug["squat"] == {"weight": W("102.5", "kg", "102.5"), "reps": 5, "reason": "every set reached 8 reps last time: add 2.5 kg"}
    assert sug["ohp"] == {"weight": W("100", "lb", "45.359237"), "reps": 4, "reason": "every set reached 6 reps last time: add 5 lb"}
    assert sug["bench"] == {"weight": W("225", "lb", "102.05828325"), "reps": 6, "reason": "one more rep than last time, up to 6"}
    assert sug["deadlift"] == {"weight": W("140", "kg", "140"), "reps": 5, "reason": "same as last time"}
    assert sug["dip"] == {"weight": None, "reps": 10, "reason": "every set reached 10 reps last time: the same again"}
    assert sug["pulldown"] == {"weight": W("50", "kg", "50"), "reps": 10, "reason": "not every set reached 10 reps last time: the same again"}
    assert sug["apu"] == {"weight": W("37.5", "kg", "37.5"), "reps": 5, "reason": "every set reached 8 reps last time: take 2.5 kg of help off"}
    assert sug["band"] == {"weight": W("0", "kg", "0"), "reps": 5, "reason": "every set reached 8 reps last time: take 2 kg of help off"}
    assert sug["hack"] == {"weight": W("80", "kg", "80"), "reps": 8, "reason": "1 of 3 sets last time: the same again"}
    assert sug["heavy"] == {"weight": W("999", "kg", "999"), "reps": 5, "reason": "every set reached 5 reps last time: the same again"}
    assert ex["hack"]["target"] == {"sets": 3, "minimumReps": 5, "maximumReps": 8, "restSeconds": 90} and ex["curl"]["target"] is None
    assert ex["row"]["lastTime"] is None and sug["row"] is None and ex["curl"]["lastTime"] is None
    assert [s["set"] for s in ex["curl"]["sets"]] == [4] and sug["curl"] is None  # a miss is no set to repeat
    assert (ex["curl"]["sets"][0]["durationSeconds"], ex["curl"]["sets"][0]["distanceMeters"]) == (30, "12.5")
    assert (ex["press"]["sets"][0]["durationSeconds"], ex["press"]["sets"][0]["distanceMeters"]) == (None, None)
    ev("workout-3", "WorkoutPaused", 1300)  # a running pause: elapsed stops at its start; stale after 7200 s
    out = status(recs, S + (1300 + 7200) * US + 1)
    assert (out["elapsedSeconds"], out["paused"], out["stale"], out["choices"]) == (999, True, True, ["finish", "discard"]), out
    assert out["rest"]["remainingSeconds"] == 0 and status(recs, S + 8500 * US)["stale"] is False
    ev("workout-3", "WorkoutFinished", 1400)
    assert status(recs, S) == {"active": False}
    # A stale workout whose only set's exercise was taken out has no set that counts: it can only be discarded.
    ev("workout-5", "WorkoutStarted", 2000); ev("workout-5", "ExerciseAdded", 2000, exerciseId="squat")
    ev("workout-5", "SetLogged", 2001, **st(1, "squat", "100", "kg", 5))
    ev("workout-5", "ExerciseRemoved", 2002, exerciseId="squat")
    assert status(recs, S + (2002 + 7201) * US)["choices"] == ["discard"]
    ev("workout-5", "ExerciseAdded", 2003, exerciseId="squat")
    assert status(recs, S + (2003 + 7201) * US)["choices"] == ["finish", "discard"]
    ev("workout-5", "WorkoutFinished", 2004)
    # A drop set is not repeated; once the routine's 3 sets of hack squats are lifted (a miss is none), no set is
    # suggested.
    ev("workout-6", "WorkoutStarted", 3000, name="Legs", routineId="legs")
    ev("workout-6", "ExerciseAdded", 3000, exerciseId="hack", exerciseName="hack")
    for args in ((1, "hack", "100", "kg", 8), (2, "hack", "80", "kg", 8, "drop"), (3, "hack", "100", "kg", 0)):
        ev("workout-6", "SetLogged", 3001, **st(*args))
    sug = status(recs, S + 3002 * US)["exercises"][0]["suggestedNext"]
    assert sug == {"weight": W("100", "kg", "100"), "reps": 8, "reason": "repeat set 1"}, sug
    ev("workout-6", "SetLogged", 3003, **st(4, "hack", "100", "kg", 8))
    assert status(recs, S + 3004 * US)["exercises"][0]["suggestedNext"] is None
    # Restored workouts count again for the last time: workout-7, deleted, then restored; workout-8, discarded, then
    # restored with its end.
    ev("workout-6", "WorkoutFinished", 3005)
    for wid, t in (("workout-7", 3010), ("workout-8", 3020)):
        ev(wid, "WorkoutStarted", t); ev(wid, "ExerciseAdded", t, exerciseId="squat")
        ev(wid, "SetLogged", t + 1, **st(1, "squat", "60", "kg", 5))
    ev("workout-7", "WorkoutFinished", 3012); ev("workout-7", "WorkoutDeleted", 3013)
    ev("workout-8", "WorkoutDiscarded", 3022)
    ev("workout-9", "WorkoutStarted", 3030); ev("workout-9", "ExerciseAdded", 3030, exerciseId="squat")
    last = lambda: status(recs, S + 3040 * US)["exercises"][0]["lastTime"]["workoutId"]
    assert last() == "workout-5", last()
    ev("workout-7", "WorkoutRestored", 3032)
    assert last() == "workout-7", last()
    ev("workout-8", "WorkoutRestored", 3033, finishedAt=fmt_time(S + 3021 * US))
    assert last() == "workout-8", last()
    assert fmt_time(parse_time("0000-03-01T00:00:00.5Z")) == "0000-03-01T00:00:00.500000Z"
    assert fmt_time(parse_time("2026-11-22T20:05:09.25+02:00")) == "2026-11-22T18:05:09.250000Z"
    print("self-test passed")

def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--now"); p.add_argument("--stale-after", type=int, default=7200)
    p.add_argument("--self-test", action="store_true"); p.add_argument("events", nargs="?")
    a = p.parse_args()
    if a.self_test:
        return self_test()
    if a.now is None:
        p.error("--now is required")
    src = open(a.events, encoding="utf-8") if a.events else sys.stdin
    records = [json.loads(line) for line in src if line.strip()]
    print(json.dumps(status(records, parse_time(a.now), a.stale_after), ensure_ascii=False))

if __name__ == "__main__":
    main()
