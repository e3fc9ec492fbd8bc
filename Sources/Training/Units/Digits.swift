extension StringProtocol {
    /// Whether the text is one or more ASCII digits and nothing else: no sign (which `UInt32("+5")` reads), no space.
    public var isDigits: Bool { !isEmpty && allSatisfy { $0.isASCII && $0.isNumber } }
}

extension UnsignedInteger where Self: FixedWidthInteger {
    /// A whole number written in digits alone (see ``StringProtocol/isDigits``); nil for other text, or past `max`.
    public init?(digits text: some StringProtocol) {
        guard text.isDigits else { return nil }
        self.init(text, radix: 10)
    }
}
