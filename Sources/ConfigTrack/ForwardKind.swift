/// The direction of a port-forward rule, as in `ssh -L`, `-R` and `-D`.
public enum ForwardKind: String, Sendable, CaseIterable {
    case local
    case remote
    case dynamic
}
