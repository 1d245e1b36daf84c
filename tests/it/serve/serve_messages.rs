//! Every message the table server answers a refused request with, pinned:
//! its status and its words, as a client sees them.

use crate::common;

use serde_json::Value;

#[test]
fn the_servers_refusals_are_pinned() {
    let log = common::new_soleils_table("serve-messages", "m.jsonl");
    let served = common::serve(&log, &[]);
    let (ann, referee) = (served.token("Ann"), served.token("referee"));
    let base = served.base();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let post = |who: Option<&str>, body: &str| -> String {
        let mut request = agent.post(format!("{base}/api/events"));
        if let Some(token) = who {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let mut response = request.send(body.to_owned()).unwrap();
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap_or_default();
        let error = serde_json::from_str::<Value>(&text)
            .map(|v| {
                v["error"]
                    .as_str()
                    .or(v["said"].as_str())
                    .unwrap_or_default()
                    .to_owned()
            })
            .unwrap_or(text);
        format!("{status} {}", error.replace(&log, "m.jsonl"))
    };
    let mut text = String::new();
    let cases: [(&str, Option<&str>, String); 12] = [
        (
            "no token",
            None,
            r#"{"type":"rolled","dice":[4,5,2]}"#.to_owned(),
        ),
        (
            "an unknown token",
            Some("0123abcd"),
            r#"{"type":"rolled","dice":[4,5,2]}"#.to_owned(),
        ),
        (
            "a player rolling",
            Some(&ann),
            r#"{"type":"rolled","dice":[4,5,2]}"#.to_owned(),
        ),
        (
            "malformed JSON",
            Some(&referee),
            r#"{"type":"rolled","#.to_owned(),
        ),
        ("not an object", Some(&referee), "[1, 2]".to_owned()),
        (
            "an unknown type",
            Some(&referee),
            r#"{"type":"shuffled"}"#.to_owned(),
        ),
        (
            "a wrong seq",
            Some(&referee),
            r#"{"seq":7,"type":"rolled","dice":[4,5,2]}"#.to_owned(),
        ),
        (
            "the roll",
            Some(&referee),
            r#"{"type":"rolled","dice":[4,5,2]}"#.to_owned(),
        ),
        (
            "Ann placing for Bob",
            Some(&ann),
            r#"{"type":"placed","player":"Bob","box":"K1d","value":5}"#.to_owned(),
        ),
        (
            "Ann placing for a stranger",
            Some(&ann),
            r#"{"type":"placed","player":"Zed","box":"K1d","value":5}"#.to_owned(),
        ),
        (
            "an illegal placement",
            Some(&ann),
            r#"{"type":"placed","player":"Ann","box":"K1a","value":5}"#.to_owned(),
        ),
        ("a body too large", Some(&ann), "x".repeat(20_000)),
    ];
    for (what, who, body) in cases {
        text.push_str(&format!("{what}: {}\n", post(who, &body)));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("serve__refusals", text));
}

#[test]
fn serving_a_missing_log_says_how_to_start_one() {
    let (code, _, stderr) = common::sunfold(&["serve", "no/such.jsonl", "--listen", "127.0.0.1:0"]);
    assert_eq!(code, 2);
    common::snapshots().bind(|| insta::assert_snapshot!("serve__missing_log", stderr));
}
