#!/usr/bin/python3
"""Read a LiftLedger journal (on-disk format version 1) without LiftLedger.

Written from docs/FORMAT.md alone, as a check that the documentation is enough
to read a journal from another program. Needs only the standard library and
Debian's python3-lmdb.

    read-journal.py JOURNAL_DIR                 print every record as one JSON
                                                object per line, in position
                                                order, like `liftledger events --json`
    read-journal.py --verify-only JOURNAL_DIR   check every record and meta/head,
                                                print one summary line

Exit status: 0 when every record checks out; 1 at the first corrupt or
inconsistent record (named on stderr; records before it may already have been
printed); 2 for a usage error, a directory that cannot be opened as a journal,
or a journal whose format is newer than this reader understands.
"""

import base64
import hashlib
import json
import struct
import sys
import uuid

import lmdb

PROG = "read-journal"
SUPPORTED_FORMAT = 1
RECORD_VERSION = 1
FIXED_SIZE = 92          # bytes before the variable-length fields
CHECKSUM_SIZE = 4
ZERO_HASH = bytes(32)
ENCODINGS = {0: "opaque", 1: "json", 2: "binary"}
DATABASES = ("meta", "events", "streams", "stream_heads", "event_ids")


# --- CRC-32C (Castagnoli), reflected polynomial 0x82F63B78 -------------------

def _crc32c_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return tuple(table)


_CRC32C_TABLE = _crc32c_table()


def crc32c(data):
    crc = 0xFFFFFFFF
    table = _CRC32C_TABLE
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


assert crc32c(b"123456789") == 0xE3069283, "CRC-32C self-test failed"


# --- errors --------------------------------------------------------------------

class Corrupt(Exception):
    """The journal's content disagrees with the format: exit status 1."""


class Refuse(Exception):
    """Not something this reader can or may read: exit status 2."""


# --- formatting ------------------------------------------------------------------

def civil_from_days(z):
    """(year, month, day) in the proleptic Gregorian calendar of day z, counted
    from 1970-01-01 = 0. Integer arithmetic, valid for any z (H. Hinnant's
    days-to-civil algorithm)."""
    z += 719468
    era = z // 146097
    doe = z - era * 146097                                   # [0, 146096]
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365  # [0, 399]
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)          # [0, 365]
    mp = (5 * doy + 2) // 153                                # [0, 11], March first
    d = doy - (153 * mp + 2) // 5 + 1                        # [1, 31]
    m = mp + 3 if mp < 10 else mp - 9
    return (y + 1 if m <= 2 else y), m, d


def _one_line_json(payload):
    """(value,) when the payload is valid JSON text without line breaks, else None (FORMAT.md: such a json payload
    is shown as payloadBase64)."""
    if b"\n" in payload or b"\r" in payload:
        return None
    try:
        return (json.loads(payload.decode("utf-8"), parse_constant=_no_constants),)
    except (UnicodeDecodeError, ValueError):
        return None


def format_micros(us):
    """RFC 3339 UTC with exactly six fractional digits, from integer microseconds.

    Integer arithmetic only, never floats. Floor division keeps times before
    1970 right (-1 us is 1969-12-31T23:59:59.999999Z). The proleptic Gregorian
    calendar is used for every date. Years outside 0000-9999 (which no append
    can store) are written, as docs/FORMAT.md says, with a sign and at least
    four digits: -0001, +10000."""
    seconds, micro = divmod(us, 1_000_000)
    days, sec_of_day = divmod(seconds, 86_400)
    year, month, day = civil_from_days(days)
    hh, rem = divmod(sec_of_day, 3600)
    mm, ss = divmod(rem, 60)
    if 0 <= year <= 9999:
        year_text = "%04d" % year
    else:
        year_text = ("-%04d" if year < 0 else "+%04d") % abs(year)
    return "%s-%02d-%02dT%02d:%02d:%02d.%06dZ" % (year_text, month, day, hh, mm, ss, micro)


def _no_constants(name):
    raise ValueError("non-standard JSON constant %s" % name)


# --- training events: the binary encoding (encoding 2) --------------------------

class Undecodable(Exception):
    """A binary payload that does not decode: the record is shown without `data`."""


_U64_MAX = (1 << 64) - 1
_MAX_FIELD_NUMBER = (1 << 29) - 1


def _varint(buf, i):
    """(value, next offset): LEB128, at most 10 bytes and 64 bits."""
    value = 0
    for n in range(10):
        if i >= len(buf):
            raise Undecodable("varint runs past the end")
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << (7 * n)
        if not b & 0x80:
            if value > _U64_MAX:
                raise Undecodable("varint exceeds 64 bits")
            return value, i
    raise Undecodable("varint longer than 10 bytes")


def _fields(buf):
    """The payload's fields in order: a list of (number, wire type, value), where the value is an int
    (wire type 0) or bytes (wire types 1 and 2)."""
    out = []
    i = 0
    while i < len(buf):
        key, i = _varint(buf, i)
        number, wire = key >> 3, key & 7
        if not 1 <= number <= _MAX_FIELD_NUMBER:
            raise Undecodable("field number %d out of range" % number)
        if wire == 0:
            value, i = _varint(buf, i)
        elif wire == 1:
            if i + 8 > len(buf):
                raise Undecodable("8-byte value runs past the end")
            value, i = buf[i:i + 8], i + 8
        elif wire == 2:
            n, i = _varint(buf, i)
            if i + n > len(buf):
                raise Undecodable("length-delimited value runs past the end")
            value, i = buf[i:i + n], i + n
        else:
            raise Undecodable("wire type %d" % wire)
        out.append((number, wire, value))
    return out


def _zigzag(v):
    return (v >> 1) ^ -(v & 1)


def _string(raw):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Undecodable("invalid UTF-8")


def _decimal_text(text):
    """Check the decimal grammar: optional '-', digits, optionally '.' and 1 to 18 digits."""
    body = text[1:] if text.startswith("-") else text
    whole, dot, frac = body.partition(".")
    if not whole or not (whole.isascii() and whole.isdigit()):
        raise Undecodable("bad decimal %r" % text)
    if dot and (not frac or not (frac.isascii() and frac.isdigit()) or len(frac) > 18):
        raise Undecodable("bad decimal %r" % text)
    return text


def _decimal(raw):
    return _decimal_text(_string(raw))


_UNITS = {1: "kg", 2: "lb"}
_KINDS = {1: "normal", 2: "warmup", 3: "drop", 4: "failure"}
_SCHEDULE_KINDS = {1: "weekdays", 2: "split"}


def _unit(v):
    if v not in _UNITS:
        raise Undecodable("unknown unit %d" % v)
    return _UNITS[v]


def _kind(v):
    if v not in _KINDS:
        raise Undecodable("unknown set kind %d" % v)
    return _KINDS[v]


def _schedule_kind(v):
    if v not in _SCHEDULE_KINDS:
        raise Undecodable("unknown schedule kind %d" % v)
    return _SCHEDULE_KINDS[v]


def _rpe_from_half_steps(v):
    if not 2 <= v <= 20:
        raise Undecodable("rpe %d out of range" % v)
    return v // 2 if v % 2 == 0 else v / 2


def _weight(raw):
    """A nested message: 1 value decimal, 2 unit uint. Both taken as required."""
    msg = _decode_message(raw, {1: ("value", "decimal"), 2: ("unit", "uint")}, ("value", "unit"))
    return {"unit": _unit(msg["unit"]), "value": msg["value"]}


# Each value type: (wire type, converter from the raw value to its JSON form).
_VALUE_TYPES = {
    "uint": (0, lambda v: v),
    "u32": (0, lambda v: v),          # range checked below
    "sint": (0, _zigzag),
    "bool": (0, lambda v: {0: False, 1: True}[v] if v in (0, 1) else _raise("bool %d" % v)),
    "string": (2, _string),
    "decimal": (2, _decimal),
    "time": (0, lambda v: format_micros(_zigzag(v))),
    "weight": (2, _weight),
    "kind": (0, _kind),
    "rpe": (0, _rpe_from_half_steps),
    "unit": (0, _unit),
    "schedule_kind": (0, _schedule_kind),
    "binary64": (1, lambda raw: struct.unpack(">d", raw)[0]),
}


def _raise(message):
    raise Undecodable(message)


def _decode_message(buf, spec, required=(), lists=(), defaults=None):
    """Decode fields by spec {number: (name, value type)}; unknown numbers are skipped. A list field collects
    every occurrence; any other known field may occur once. Returns {name: JSON value}."""
    result = {name: [] for name in lists}
    for number, wire, raw in _fields(buf):
        if number not in spec:
            continue
        name, vtype = spec[number]
        expected_wire, convert = _VALUE_TYPES[vtype]
        if wire != expected_wire:
            raise Undecodable("field %d has wire type %d, expected %d" % (number, wire, expected_wire))
        if vtype == "u32" and raw > 0xFFFFFFFF:
            raise Undecodable("field %d exceeds u32" % number)
        value = convert(raw)
        if name in lists:
            result[name].append(value)
        elif name in result:
            raise Undecodable("field %d occurs more than once" % number)
        else:
            result[name] = value
    for name in required:
        if name not in result:
            raise Undecodable("required field %s is absent" % name)
    for name, value in (defaults or {}).items():
        result.setdefault(name, value)
    return result


def _event(spec, required=(), lists=(), defaults=None):
    fields = {}
    for number, (name, vtype) in spec.items():
        fields[number] = (name, vtype)
    return lambda buf: _decode_message(buf, fields, required, lists, defaults)


_SET_FIELDS = {1: ("setNumber", "uint"), 2: ("exerciseId", "string"), 3: ("weight", "weight"),
               4: ("reps", "uint"), 5: ("kind", "kind"), 6: ("rpe", "rpe"), 7: ("note", "string"),
               8: ("durationSeconds", "uint"), 9: ("distanceMeters", "decimal")}
_SET_REQUIRED = ("setNumber", "exerciseId")
_SET_DEFAULTS = {"reps": 0, "kind": "normal"}


def _shortest_decimal(x):
    """The shortest decimal text that reads back as binary64 x, without an exponent."""
    if x != x or x in (float("inf"), float("-inf")):
        raise Undecodable("weightKg is not finite")
    text = repr(x)                       # shortest round-trip digits (Python >= 3.1)
    mantissa, _, exponent = text.partition("e")
    sign = ""
    if mantissa.startswith("-"):
        sign, mantissa = "-", mantissa[1:]
    whole, _, frac = mantissa.partition(".")
    digits = whole + frac
    point = len(whole) + (int(exponent) if exponent else 0)
    if point <= 0:
        digits, point = "0" * (1 - point) + digits, 1
    elif point > len(digits):
        digits += "0" * (point - len(digits))
    whole, frac = digits[:point].lstrip("0") or "0", digits[point:].rstrip("0")
    return _decimal_text(sign + whole + ("." + frac if frac else ""))


def _set_logged_v1(buf):
    """SetLogged version 1, upcast to version 2."""
    spec = {1: ("setNumber", "uint"), 2: ("exerciseId", "string"), 3: ("weightKg", "binary64"),
            4: ("reps", "uint"), 5: ("kind", "kind"), 6: ("rpe", "binary64"), 7: ("note", "string")}
    v1 = _decode_message(buf, spec, _SET_REQUIRED)
    data = {k: v for k, v in v1.items() if k not in ("weightKg", "rpe")}
    if "weightKg" in v1:
        data["weight"] = {"unit": "kg", "value": _shortest_decimal(v1["weightKg"])}
    if "rpe" in v1:
        half_steps = v1["rpe"] * 2
        if half_steps != half_steps or half_steps != int(half_steps):
            raise Undecodable("rpe %r is not a half step" % v1["rpe"])
        data["rpe"] = _rpe_from_half_steps(int(half_steps))
    for name, value in _SET_DEFAULTS.items():
        data.setdefault(name, value)
    return data


_NONE = _event({})

# (event type, schema version) -> decoder of the payload to the current version's fields.
# CURRENT_VERSIONS gives the newest documented version of each type.
TRAINING_EVENTS = {
    ("ProfileUpdated", 1): _event({1: ("name", "string"), 2: ("age", "uint"), 3: ("heightCentimeters", "decimal"),
                                   4: ("unit", "unit"), 5: ("timeZone", "string")}),
    ("BodyWeightRecorded", 1): _event({1: ("weight", "weight")}, ("weight",)),
    ("CustomExerciseAdded", 1): _event({1: ("exerciseId", "string"), 2: ("name", "string"),
                                        3: ("primaryMuscles", "string"), 4: ("secondaryMuscles", "string"),
                                        5: ("equipment", "string"), 6: ("force", "string"),
                                        7: ("mechanic", "string"), 8: ("category", "string")},
                                       ("exerciseId", "name"), ("primaryMuscles", "secondaryMuscles")),
    ("RoutineCreated", 1): _event({1: ("routineId", "string"), 2: ("name", "string")}, ("routineId", "name")),
    ("RoutineExerciseAdded", 1): _event({1: ("exerciseId", "string"), 2: ("exerciseName", "string"),
                                         3: ("targetSets", "uint"), 4: ("minimumReps", "uint"),
                                         5: ("maximumReps", "uint"), 6: ("restSeconds", "uint")},
                                        ("exerciseId",), (),
                                        {"exerciseName": "", "targetSets": 0, "minimumReps": 0,
                                         "maximumReps": 0, "restSeconds": 0}),
    ("RoutineExerciseRemoved", 1): _event({1: ("exerciseId", "string")}, ("exerciseId",)),
    ("RoutineExerciseMoved", 1): _event({1: ("exerciseId", "string"), 2: ("toIndex", "uint")},
                                        ("exerciseId",), (), {"toIndex": 0}),
    ("ScheduleSet", 1): _event({1: ("kind", "schedule_kind"), 2: ("days", "string"), 3: ("startDate", "string")},
                               (), ("days",), {"kind": "weekdays"}),
    ("WorkoutStarted", 1): _event({1: ("name", "string"), 2: ("routineId", "string")}, (), (), {"name": ""}),
    ("WorkoutPaused", 1): _NONE,
    ("WorkoutResumed", 1): _NONE,
    ("WorkoutFinished", 1): _event({1: ("note", "string")}),
    ("WorkoutDiscarded", 1): _NONE,
    ("WorkoutEdited", 1): _event({1: ("startedAt", "time"), 2: ("note", "string"), 3: ("name", "string")}),
    ("WorkoutDeleted", 1): _event({1: ("reason", "string")}),
    ("WorkoutRestored", 1): _event({1: ("finishedAt", "time")}),
    ("ExerciseAdded", 1): _event({1: ("exerciseId", "string"), 2: ("exerciseName", "string")},
                                 ("exerciseId",), (), {"exerciseName": ""}),
    ("ExerciseRemoved", 1): _event({1: ("exerciseId", "string")}, ("exerciseId",)),
    ("ExerciseMoved", 1): _event({1: ("exerciseId", "string"), 2: ("toIndex", "uint")},
                                 ("exerciseId",), (), {"toIndex": 0}),
    ("SetLogged", 1): _set_logged_v1,
    ("SetLogged", 2): _event(_SET_FIELDS, _SET_REQUIRED, (), _SET_DEFAULTS),
    ("SetCorrected", 1): _event(_SET_FIELDS, _SET_REQUIRED, (), _SET_DEFAULTS),
    ("SetRemoved", 1): _event({1: ("setNumber", "uint")}, ("setNumber",)),
    ("RestTimerStarted", 1): _event({1: ("durationSeconds", "uint"), 2: ("endsAt", "time"), 3: ("afterSet", "uint")},
                                    ("endsAt",), (), {"durationSeconds": 0}),
    ("RestTimerExtended", 1): _event({1: ("bySeconds", "sint"), 2: ("endsAt", "time")},
                                     ("endsAt",), (), {"bySeconds": 0}),
    ("RestTimerSkipped", 1): _NONE,
    ("RestTimerFinished", 1): _event({1: ("endedAt", "time")}, ("endedAt",)),
}


def decode_training_event(event_type, schema_version, payload):
    """The `data` object of a binary record (keys sorted), or None when the type or version is not documented
    or the payload does not decode."""
    decoder = TRAINING_EVENTS.get((event_type, schema_version))
    if decoder is None:
        return None
    try:
        data = decoder(bytes(payload))
    except Undecodable:
        return None
    return {k: data[k] for k in sorted(data)}


# --- records -------------------------------------------------------------------

class Reader:
    """Sequential reader of the fixed and variable-length fields of a record."""

    def __init__(self, data, offset, end):
        self.data, self.offset, self.end = data, offset, end

    def take(self, n, what):
        if self.offset + n > self.end:
            raise Corrupt("%s runs past the end of the record (needs %d bytes at offset %d, "
                          "the checksum starts at %d)" % (what, n, self.offset, self.end))
        chunk = self.data[self.offset:self.offset + n]
        self.offset += n
        return chunk

    def text(self, length_format, what):
        size = struct.calcsize(length_format)
        (n,) = struct.unpack(length_format, self.take(size, what + " length"))
        raw = self.take(n, what)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise Corrupt("%s is not valid UTF-8 (%s)" % (what, e))


def decode_record(key_position, value, prev_hash):
    """Check one stored record and return (json object, its chain hash).

    Raises Corrupt naming what failed (the caller adds the position)."""
    size = len(value)
    if size < FIXED_SIZE + 2 * 5 + 4 + CHECKSUM_SIZE:
        raise Corrupt("record is only %d bytes, shorter than the smallest possible record" % size)

    (length,) = struct.unpack_from(">I", value, 4)
    if length != size:
        raise Corrupt("length field says %d bytes but the stored value is %d bytes" % (length, size))

    (stored_crc,) = struct.unpack_from(">I", value, size - CHECKSUM_SIZE)
    computed_crc = crc32c(value[:size - CHECKSUM_SIZE])
    if stored_crc != computed_crc:
        raise Corrupt("checksum mismatch: stored 0x%08X, computed CRC-32C 0x%08X"
                      % (stored_crc, computed_crc))

    version, encoding = value[0], value[1]
    if version != RECORD_VERSION:
        raise Corrupt("record format version is %d, expected %d" % (version, RECORD_VERSION))
    if encoding not in ENCODINGS:
        raise Corrupt("unknown payload encoding %d" % encoding)

    (position, stream_version, recorded_at, occurred_at, schema_version) = struct.unpack_from(
        ">QQqqI", value, 8)
    if position != key_position:
        raise Corrupt("position field is %d but the record is stored under key %d"
                      % (position, key_position))

    event_id = value[44:60]
    stored_prev = value[60:92]
    if stored_prev != prev_hash:
        raise Corrupt("previous-hash field is %s but the chain hash of the record before is %s"
                      % (stored_prev.hex(), prev_hash.hex()))

    r = Reader(value, FIXED_SIZE, size - CHECKSUM_SIZE)
    stream_id = r.text(">H", "stream id")
    event_type = r.text(">H", "event type")
    correlation_id = r.text(">H", "correlation id")
    causation_id = r.text(">H", "causation id")
    source = r.text(">H", "source")
    (payload_len,) = struct.unpack(">I", r.take(4, "payload length"))
    payload = r.take(payload_len, "payload")
    if r.offset != r.end:
        raise Corrupt("%d unexpected bytes between the payload and the checksum" % (r.end - r.offset))

    chain_hash = hashlib.sha256(prev_hash + value).digest()

    obj = {
        "position": position,
        "streamId": stream_id,
        "streamVersion": stream_version,
        "eventId": str(uuid.UUID(bytes=event_id)),
        "type": event_type,
        "schemaVersion": schema_version,
        "recordedAt": format_micros(recorded_at),
        "occurredAt": format_micros(occurred_at),
        "metadata": {
            "correlationId": correlation_id,
            "causationId": causation_id,
            "source": source,
        },
        "encoding": ENCODINGS[encoding],
    }
    parsed = _one_line_json(payload) if encoding == 1 else None
    if parsed is not None:
        obj["payload"] = parsed[0]
    else:
        obj["payloadBase64"] = base64.b64encode(payload).decode("ascii")
    if encoding == 2:
        data = decode_training_event(event_type, schema_version, payload)
        if data is not None:
            obj["data"] = data
    obj["hash"] = chain_hash.hex()
    return obj, chain_hash


# --- the journal ----------------------------------------------------------------

def read_journal(path, verify_only, out):
    try:
        env = lmdb.open(path, readonly=True, lock=True, subdir=True, create=False,
                        max_dbs=len(DATABASES) + 3)
    except lmdb.Error as e:
        raise Refuse("cannot open %s as an LMDB environment: %s" % (path, e))
    try:
        with env.begin(write=False, buffers=False) as txn:
            dbs = {}
            for name in ("meta", "events"):
                try:
                    dbs[name] = env.open_db(name.encode("ascii"), txn=txn, create=False)
                except lmdb.NotFoundError:
                    raise Refuse("%s is not a LiftLedger journal: no '%s' database" % (path, name))

            fmt = txn.get(b"format", db=dbs["meta"])
            if fmt is None:
                raise Refuse("%s is not a LiftLedger journal: no meta/format entry" % path)
            if len(fmt) != 4:
                raise Corrupt("meta/format is %d bytes, expected 4" % len(fmt))
            (fmt_version,) = struct.unpack(">I", fmt)
            if fmt_version > SUPPORTED_FORMAT:
                raise Refuse("%s has on-disk format %d; this reader only understands format %d or older"
                             % (path, fmt_version, SUPPORTED_FORMAT))

            prev_hash = ZERO_HASH
            expected = 1
            count = 0
            for key, value in txn.cursor(db=dbs["events"]):
                if len(key) != 8:
                    raise Corrupt("events key %s is %d bytes, expected an 8-byte position"
                                  % (key.hex(), len(key)))
                (position,) = struct.unpack(">Q", key)
                if position != expected:
                    raise Corrupt("position %d: positions are not gapless from 1 "
                                  "(expected position %d next)" % (position, expected))
                try:
                    obj, prev_hash = decode_record(position, value, prev_hash)
                except Corrupt as e:
                    raise Corrupt("position %d: %s" % (position, e))
                count += 1
                expected += 1
                if not verify_only:
                    line = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
                    try:
                        out.write(line.encode("utf-8") + b"\n")
                    except UnicodeEncodeError:
                        raise Corrupt("position %d: payload holds a lone UTF-16 surrogate, "
                                      "which cannot be written as UTF-8" % position)

            if verify_only:
                head = txn.get(b"head", db=dbs["meta"])
                if head is None:
                    raise Corrupt("meta/head is missing")
                if len(head) != 40:
                    raise Corrupt("meta/head is %d bytes, expected 40" % len(head))
                (head_position,) = struct.unpack_from(">Q", head, 0)
                head_hash = head[8:40]
                if head_position != count:
                    raise Corrupt("meta/head names position %d but the last record is at position %d"
                                  % (head_position, count))
                if head_hash != prev_hash:
                    raise Corrupt("meta/head hash is %s but the chain hash of position %d is %s"
                                  % (head_hash.hex(), count, prev_hash.hex()))
                out.write(("ok %d records, head hash %s\n" % (count, prev_hash.hex())).encode("ascii"))
    finally:
        env.close()


def main(argv):
    args = argv[1:]
    if any(a in ("-h", "--help") for a in args):
        sys.stdout.write(__doc__.lstrip())
        return 0
    verify_only = "--verify-only" in args
    args = [a for a in args if a != "--verify-only"]
    if len(args) != 1 or args[0].startswith("-"):
        sys.stderr.write("usage: read-journal.py [--verify-only] JOURNAL_DIR\n")
        return 2
    out = sys.stdout.buffer
    try:
        read_journal(args[0], verify_only, out)
        out.flush()
    except Corrupt as e:
        out.flush()
        sys.stderr.write("%s: %s\n" % (PROG, e))
        return 1
    except Refuse as e:
        out.flush()
        sys.stderr.write("%s: %s\n" % (PROG, e))
        return 2
    except BrokenPipeError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
