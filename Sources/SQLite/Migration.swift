/// A named schema change. Shipped migrations are never edited; new ones are appended.
public struct Migration: Sendable {
    public let name: String
    public let apply: @Sendable (Connection) throws -> Void

    public init(_ name: String, _ apply: @escaping @Sendable (Connection) throws -> Void) {
        self.name = name
        self.apply = apply
    }
}
