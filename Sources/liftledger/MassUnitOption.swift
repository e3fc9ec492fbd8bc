import ArgumentParser
import Training

/// Refuses a `--unit` that names no mass unit, as the argument parser refuses a value not of an option's type.
func requireMassUnit(_ unit: String?) throws {
    if let unit, MassUnit(parsing: unit) == nil {
        throw ValidationError("unknown unit \(unit.debugDescription); give --unit kg or --unit lb")
    }
}
