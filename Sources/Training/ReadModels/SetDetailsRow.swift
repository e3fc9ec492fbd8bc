/// A set's fields as the read models keep them: decimals as a significand and a scale rather than text, which is
/// quicker to write and read than the events' encoding (docs/FORMAT.md, "Read models").
extension SetDetails {
    /// 1 exercise id, 2 weight significand (sint), 3 weight scale, 4 weight unit, 5 reps, 6 kind, 7 RPE in half
    /// steps, 8 note, 9 duration in seconds, 10 distance significand (sint), 11 distance scale.
    func writeRow(to writer: inout PayloadWriter) {
        writer.string(1, exerciseId)
        if let weight {
            writer.signed(2, weight.value.significand)
            writer.unsigned(3, UInt64(weight.value.scale))
            writer.unsigned(4, weight.unit.code)
        }
        writer.unsigned(5, UInt64(reps))
        writer.unsigned(6, kind.code)
        writer.unsigned(7, rpe.map { UInt64($0.halfSteps) })
        writer.string(8, note)
        writer.unsigned(9, durationSeconds.map(UInt64.init))
        if let distanceMeters {
            writer.signed(10, distanceMeters.significand)
            writer.unsigned(11, UInt64(distanceMeters.scale))
        }
    }

    init(row reader: PayloadReader) throws(PayloadError) {
        var reader = reader
        self.init(exerciseId: "", weight: nil, reps: 0)
        var weight: (significand: Int64, scale: UInt8, unit: MassUnit)?
        var distance: (significand: Int64, scale: UInt8)?
        while let field = try reader.next() {
            switch field.number {
            case 1: exerciseId = try field.string()
            case 2: weight = (try field.signed(), weight?.scale ?? 0, weight?.unit ?? .kilograms)
            case 3: weight = (weight?.significand ?? 0, try field.integer(), weight?.unit ?? .kilograms)
            case 4: weight = (weight?.significand ?? 0, weight?.scale ?? 0, try MassUnit(code: field.unsigned()))
            case 5: reps = try field.integer()
            case 6: kind = try SetKind(code: field.unsigned())
            case 7: rpe = try RPE(halfSteps: field.unsigned())
            case 8: note = try field.string()
            case 9: durationSeconds = try field.integer()
            case 10: distance = (try field.signed(), distance?.scale ?? 0)
            case 11: distance = (distance?.significand ?? 0, try field.integer())
            default: continue
            }
        }
        if let weight {
            guard let value = ExactDecimal(significand: weight.significand, scale: weight.scale) else {
                throw PayloadError("a stored weight has scale \(weight.scale)")
            }
            self.weight = Weight(value, weight.unit)
        }
        if let distance {
            guard let value = ExactDecimal(significand: distance.significand, scale: distance.scale) else {
                throw PayloadError("a stored distance has scale \(distance.scale)")
            }
            distanceMeters = value
        }
    }
}
