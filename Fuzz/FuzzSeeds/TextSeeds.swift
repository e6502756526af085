import FuzzSupport

/// Seeds for the text harnesses: S3 answers, credentials files, ssh_config files, templates,
/// command lines, prompts and forwards as people and servers write them.
enum TextSeeds {
    static func write(_ seeds: SeedWriter) {
        for body in s3Bodies { seeds.write("FuzzS3XML", Array(body.utf8)) }
        for file in credentialFiles {
            seeds.write("FuzzAWSCredentials") { $0.byte(0); $0.append(Array(file.utf8)) }
            seeds.write("FuzzAWSCredentials") { $0.byte(1); $0.text("backup"); $0.append(Array(file.utf8)) }
        }
        for file in sshConfigs {
            seeds.write("FuzzSSHConfig") { $0.text("web-1"); $0.append(Array(file.utf8)) }
        }
        for (patterns, name) in hostPatterns {
            seeds.write("FuzzHostPattern") { $0.text(patterns); $0.append(Array(name.utf8)) }
        }
        for template in templates { seeds.write("FuzzTemplate", Array(template.utf8)) }
        for words in commandLines { seeds.write("FuzzSSHCommandLine", Array(words.joined(separator: "\u{0}").utf8)) }
        for (user, host, prompt) in prompts {
            seeds.write("FuzzAskpassPrompt") { $0.text(user); $0.text(host); $0.append(Array(prompt.utf8)) }
        }
        for (kind, specification) in forwards {
            seeds.write("FuzzForwardSpecification") { $0.byte(kind); $0.append(Array(specification.utf8)) }
        }
    }

    static let s3Bodies = [
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>vault</Name><Prefix>team/</Prefix><KeyCount>2</KeyCount>\
        <MaxKeys>1000</MaxKeys><IsTruncated>true</IsTruncated><NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>\
        <Contents><Key>team/zones/config/d0f4a5e2/00000000000000000007.batch</Key><LastModified>2024-12-01T10:00:00.000Z</LastModified>\
        <ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>4096</Size><StorageClass>STANDARD</StorageClass></Contents>\
        <Contents><Key>team/vault.json</Key><Size>412</Size></Contents></ListBucketResult>
        """,
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <ListBucketResult><Name>vault</Name><IsTruncated>false</IsTruncated><Contents><Key>it&apos;s &amp; &#39;odd&#x27; &lt;name&gt;</Key><Size>0</Size></Contents></ListBucketResult>
        """,
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message><BucketName>vault</BucketName><RequestId>4442587FB7D0A2F9</RequestId></Error>
        """,
    ]

    static let credentialFiles = [
        "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n\n[backup]\r\naws_access_key_id=AKIDEXAMPLE\r\naws_secret_access_key=secret\r\naws_session_token = FwoGZXIvYXdzEXAMPLE\r\n",
        "; comment\n# another\n  [ default ]  \n\tAWS_ACCESS_KEY_ID\t=\tAKIA\n aws_secret_access_key =\n",
    ]

    static let sshConfigs = [
        """
        # ~/.ssh/config
        Include config.d/*

        Host web-1 web-2 !web-3
            HostName %h.example.com
            User deploy
            Port 2222
            IdentityFile ~/.ssh/id_ed25519
            IdentityFile ~/.ssh/id_rsa
            LocalForward 8080 localhost:80
            RemoteForward [::1]:9000 db.internal:5432
            DynamicForward 1080
            ProxyJump admin@gate.example.com:2200

        Host db.internal
            HostName=10.0.0.7
            User "%u"
            ProxyCommand ssh -W %h:%p gate
            LocalCommand echo hi

        Host *.lan loop
            Include loop.conf
            User 'pi user'
            ProxyJump none

        Match host *.corp exec "true"
            User corp

        Host *
            ServerAliveInterval 30
            IdentityFile %d/.ssh/id_%r
        """,
        "Host a\\ b \"c d\" 'e'\n  HostName [fe80::1]\n  Port 0\n  User a$b`c`\n  ProxyJump [fe80::2]:22,gate\n  LocalForward *:1 x:2 extra # comment\n",
    ]

    static let hostPatterns = [
        ("web-* !web-3", "web-1"), ("*.example.com", "db.EXAMPLE.com"), ("?b", "db"), ("*", "anything"), ("*a*b*c*", "aXbYc"), ("!*", "x"),
    ]

    static let templates = [
        "DATABASE_URL=postgres://app:{{ cred://host/db-1/password }}@db-1:5432/app\nAPI_KEY={{cred://identity/laptop/passphrase}}\n",
        "{{ not a secret }} {{cred://host/web-1/password}}{{ cred://host/web-1/password }}\n{{ cred://a/b/c }} {{",
        "host.3f2504e0-4f89-41d3-9a0c-0305e82c3301.password {{ cred://host.3f2504e0-4f89-41d3-9a0c-0305e82c3301.password }}",
    ]

    static let commandLines = [
        ["-v", "-L", "8080:localhost:80", "uptime"], ["-tt", "-o", "ServerAliveInterval=30", "--", "ls", "-la"], ["-p2222", "-lroot", "-J", "gate"],
        ["-Nf", "-D", "1080"], [], ["-"], ["--"], ["-x", "-o"],
    ]

    static let prompts = [
        ("deploy", "Web-1.Example.com", "deploy@web-1.example.com's password: "), ("deploy", "web-1", "(deploy@web-1) Password: "),
        ("deploy", "web-1", "Enter passphrase for (stdin): "), ("root", "db", "Verification code: "),
    ]

    static let forwards: [(UInt8, String)] = [
        (0, "8080:localhost:80"), (0, "127.0.0.1:8080:db.internal:5432"), (1, "[::1]:9000:[fe80::1]:22"), (1, "0:localhost:22"),
        (2, "1080"), (2, "*:1080"), (2, ":1080"),
    ]
}
