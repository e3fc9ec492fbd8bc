/// Values as the read models keep them: decimals as a significand and a scale rather than text, which is quicker to
/// write and read than the events' encoding (docs/FORMAT.md, "Read models").
extension ExactDecimal {
    /// 1 significand (sint), 2 scale (absent: 0).
    func writeRow(to writer: inout PayloadWriter) {
        writer.signed(1, significand)
        if scale != 0 { writer.unsigned(2, UInt64(scale)) }
    }

    init(row reader: PayloadReader) throws(PayloadError) {
        var reader = reader
        var significand: Int64 = 0
        var scale: UInt8 = 0
        while let field = try reader.next() {
            switch field.number {
            case 1: significand = try field.signed()
            case 2: scale = try field.integer()
            default: continue
            }
        }
        guard let value = ExactDecimal(significand: significand, scale: scale) else {
            throw PayloadError("a stored decimal has scale \(scale)")
        }
        self = value
    }
}

extension Weight {
    /// 1 value (a decimal, nested), 2 unit (absent: kilograms).
    func writeRow(to writer: inout PayloadWriter) {
        writer.message(1) { value.writeRow(to: &$0) }
        if unit != .kilograms { writer.unsigned(2, unit.code) }
    }

    init(row reader: PayloadReader) throws(PayloadError) {
        var reader = reader
        var value = ExactDecimal(0)
        var unit = MassUnit.kilograms
        while let field = try reader.next() {
            switch field.number {
            case 1: value = try ExactDecimal(row: field.message())
            case 2: unit = try MassUnit(code: field.unsigned())
            default: continue
            }
        }
        self.init(value, unit)
    }
}

extension SetDetails {
    /// 1 exercise id, 2 weight's significand (sint), 9 its scale (absent: 0), 10 its unit (absent: kilograms), 3 reps,
    /// 4 kind (absent: normal), 5 RPE in half steps, 6 note, 7 duration in seconds, 8 distance in metres (a decimal,
    /// nested). The exercise id is left out when the row's key holds it. A set's weight is kept in the set's own
    /// fields rather than nested, which spares every weighed set two message headers.
    func writeRow(to writer: inout PayloadWriter, withExercise: Bool = true) {
        if withExercise { writer.string(1, exerciseId) }
        if let weight {
            writer.signed(2, weight.value.significand)
            if weight.value.scale != 0 { writer.unsigned(9, UInt64(weight.value.scale)) }
            if weight.unit != .kilograms { writer.unsigned(10, weight.unit.code) }
        }
        writer.unsigned(3, UInt64(reps))
        if kind != .normal { writer.unsigned(4, kind.code) }
        writer.unsigned(5, rpe.map { UInt64($0.halfSteps) })
        writer.string(6, note)
        writer.unsigned(7, durationSeconds.map(UInt64.init))
        if let distanceMeters { writer.message(8) { distanceMeters.writeRow(to: &$0) } }
    }

    init(row reader: PayloadReader) throws(PayloadError) {
        var reader = reader
        self.init(exerciseId: "", weight: nil, reps: 0)
        var significand: Int64?
        var scale: UInt8 = 0
        var unit = MassUnit.kilograms
        while let field = try reader.next() {
            switch field.number {
            case 1: exerciseId = try field.sharedString()
            case 2: significand = try field.signed()
            case 9: scale = try field.integer()
            case 10: unit = try MassUnit(code: field.unsigned())
            case 3: reps = try field.integer()
            case 4: kind = try SetKind(code: field.unsigned())
            case 5: rpe = try RPE(halfSteps: field.unsigned())
            case 6: note = try field.string()
            case 7: durationSeconds = try field.integer()
            case 8: distanceMeters = try ExactDecimal(row: field.message())
            default: continue
            }
        }
        if let significand {
            guard let value = ExactDecimal(significand: significand, scale: scale) else {
                throw PayloadError("a stored weight has scale \(scale)")
            }
            weight = Weight(value, unit)
        }
    }
}
