/// A roster entry whose bytes are not a canonical entry of this format: what rule it broke.
struct RosterFormatError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
