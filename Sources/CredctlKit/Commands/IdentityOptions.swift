/// The options `identity add` and `identity edit` share.
enum IdentityOptions {
    static let user = CommandSpec.Option(name: "--user", value: "U", help: "Default remote user for hosts using this identity.")
    static let confirm = CommandSpec.Option(name: "--confirm", value: nil,
                                            help: "Ask for confirmation (through SSH_ASKPASS, as ssh-add -c does) each time the agent is to use the key.")
}
