/// A record users find by label.
protocol LabeledRecord: ConfigRecord {
    var label: String { get }
}
