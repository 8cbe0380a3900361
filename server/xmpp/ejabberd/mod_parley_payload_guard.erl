%% Validates, before a room relays them, the payloads that other occupants' clients parse: JSON
%% commands (urn:xmpp:json:0, PROTOCOL.md), Jingle (XEP-0166), chat states (XEP-0085) and real-time
%% text (XEP-0301), in groupchat and private messages and in IQs to occupants, and in the same
%% stanzas sent straight to another user (a room's moderators see its occupants' real JIDs, so the
%% room is no wall) — the counterpart of ../prosody/modules/mod_muc_parley_payload_guard.lua, with
%% the same checks and the same reasons. StanzaJS (inside SimpleWebRTC 1.30.3 and plain clients)
%% runs JSON.parse on a <json> element's text inside its stream parser: one payload that is not
%% JSON throws there and the client stops reading the room. A stanza that fails is bounced to its
%% sender (modify/bad-request, with a text saying what was wrong), never reaches anyone, and is
%% counted (rejected/0, read by mod_parley's stats; per node, as the stanza is checked on the node
%% of its sender's session).
%%
%% Bounds come from the config (ejabberdConfig.ts renders them from src/protocol/constants.ts).
-module(mod_parley_payload_guard).
-behaviour(gen_mod).

-export([start/2, stop/1, reload/3, depends/2, mod_opt_type/1, mod_options/1, mod_doc/0]).
-export([user_send_packet/1, rejected/0]).

-include("xmpp.hrl").
-include("logger.hrl").

-define(NS_JSON, <<"urn:xmpp:json:0">>).
-define(NS_JSON_MSG, <<"urn:xmpp:json-msg:0">>).
-define(NS_JINGLE, <<"urn:xmpp:jingle:1">>).
-define(NS_CHATSTATES_, <<"http://jabber.org/protocol/chatstates">>).
-define(NS_RTT, <<"urn:xmpp:rtt:0">>).
-define(BOUNDS, {?MODULE, bounds}).
-define(REJECTED, {?MODULE, rejected}).

-define(CHAT_STATES, [<<"active">>, <<"composing">>, <<"paused">>, <<"inactive">>, <<"gone">>]).
-define(RTT_EVENTS, [<<"new">>, <<"reset">>, <<"edit">>, <<"init">>, <<"cancel">>]).
-define(RTT_ACTIONS, [<<"t">>, <<"e">>, <<"w">>]).
-define(JINGLE_ACTIONS, [<<"content-accept">>, <<"content-add">>, <<"content-modify">>, <<"content-reject">>,
                         <<"content-remove">>, <<"description-info">>, <<"security-info">>, <<"session-accept">>,
                         <<"session-info">>, <<"session-initiate">>, <<"session-terminate">>, <<"transport-accept">>,
                         <<"transport-info">>, <<"transport-reject">>, <<"transport-replace">>]).
-define(JINGLE_CREATORS, [<<"initiator">>, <<"responder">>]).
-define(JINGLE_SENDERS, [<<"both">>, <<"initiator">>, <<"none">>, <<"responder">>]).
-define(JSON_ESCAPES, "\"\\/bfnrt").

start(Host, Opts) ->
    Bounds = maps:from_list([{Name, gen_mod:get_opt(Name, Opts)} || {Name, _} <- mod_options(Host)]),
    persistent_term:put(?BOUNDS, Bounds),
    % Kept across a reload: the count is since the node started.
    case persistent_term:get(?REJECTED, undefined) of
        undefined -> persistent_term:put(?REJECTED, counters:new(1, [write_concurrency]));
        _ -> ok
    end,
    % What a client sends, in its session before it is routed anywhere: to a room, an occupant or
    % another user alike. Not filter_packet, which sees every routed stanza: what a room relays to
    % each occupant would be checked again once per occupant, and a relay bounced from a user's
    % JID would make the room expel that user as gone.
    ejabberd_hooks:add(user_send_packet, Host, ?MODULE, user_send_packet, 40),
    ok.

stop(Host) ->
    ejabberd_hooks:delete(user_send_packet, Host, ?MODULE, user_send_packet, 40),
    persistent_term:erase(?BOUNDS),
    ok.

reload(Host, NewOpts, _OldOpts) ->
    stop(Host),
    start(Host, NewOpts).

depends(_Host, _Opts) -> [].

mod_opt_type(_Bound) -> econf:pos_int().

%% The same defaults as the Lua module's.
mod_options(_Host) ->
    [{json_bytes, 64 * 1024}, {json_depth, 64}, {json_per_message, 16}, {datatype_length, 256},
     {rtt_actions, 1000}, {rtt_text_bytes, 64 * 1024}, {jingle_bytes, 64 * 1024}, {jingle_contents, 32},
     {id_length, 256}, {element_depth, 32}, {element_count, 4096}].

mod_doc() -> #{desc => <<"Parley's payload guard (server/xmpp/ejabberd/mod_parley_payload_guard.erl)">>}.

%% Stanzas bounced on this node since it started.
rejected() ->
    case persistent_term:get(?REJECTED, undefined) of
        undefined -> 0;
        Counter -> counters:get(Counter, 1)
    end.

%%% Routing: what a client sends, to a room, an occupant (its occupant JID) or another user (a
%%% full JID) alike

user_send_packet({#message{type = Type} = Message, State}) when Type /= error ->
    guard(Message, State, fun message_error/2);
user_send_packet({#iq{to = #jid{lresource = Resource}, type = Type} = IQ, State}) when Resource /= <<>>, Type == set orelse Type == get ->
    guard(IQ, State, fun jingle_error/2);
user_send_packet(Acc) ->
    Acc.

%% Errors and IQ results are answers, never checked: bouncing them would start a loop.
guard(Packet, State, Check) ->
    case persistent_term:get(?BOUNDS, undefined) of
        undefined ->
            {Packet, State};
        Bounds ->
            case Check(Packet, Bounds) of
                {error, Reason} ->
                    bounce(Packet, Reason),
                    {stop, {drop, State}};
                ok ->
                    {Packet, State}
            end
    end.

bounce(Packet, Reason) ->
    counters:add(persistent_term:get(?REJECTED), 1, 1),
    ?INFO_MSG("Bounced a ~ts from ~ts to ~ts: ~ts (~B bounced so far)",
              [element(1, Packet), jid:encode(xmpp:get_from(Packet)), jid:encode(xmpp:get_to(Packet)), Reason, rejected()]),
    ejabberd_router:route_error(Packet, xmpp:err_bad_request(Reason, xmpp:get_lang(Packet))).

%%% Elements: what the sender wrote, with each element's namespace as XML reads it (a child without
%%% an xmlns attribute is in its parent's).

top_elements(Packet) ->
    [{element_ns(El, <<"jabber:client">>), El} || El <- [as_xmlel(SubEl) || SubEl <- xmpp:get_els(Packet)]].

as_xmlel(#xmlel{} = El) -> El;
as_xmlel(Decoded) -> xmpp:encode(Decoded).

element_ns(#xmlel{attrs = Attrs}, ParentNS) ->
    proplists:get_value(<<"xmlns">>, Attrs, ParentNS).

children({NS, #xmlel{children = Children}}) ->
    [{element_ns(El, NS), El} || #xmlel{} = El <- Children].

named(Name, NS, Elements) ->
    [El || {ElNS, #xmlel{name = ElName}} = El <- Elements, ElNS == NS, Name == any orelse ElName == Name].

attr(Name, {_NS, El}) ->
    fxml:get_tag_attr_s(Name, El).

text({_NS, El}) ->
    fxml:get_tag_cdata(El).

%%% Messages

message_error(Message, Bounds) ->
    Elements = top_elements(Message),
    first_error([fun() -> json_error(Elements, Bounds) end,
                 fun() -> chat_state_error(Elements) end,
                 fun() -> rtt_error(Elements, Bounds) end]).

first_error([]) -> ok;
first_error([Check | Rest]) ->
    case Check() of
        {error, _} = Error -> Error;
        ok -> first_error(Rest)
    end.

json_error(Elements, #{json_per_message := MaxPayloads, datatype_length := MaxLength} = Bounds) ->
    Payloads = named(<<"payload">>, ?NS_JSON_MSG, Elements),
    Bare = named(<<"json">>, ?NS_JSON, Elements),
    case first_error([fun() -> attribute_error(Payload, <<"datatype">>, MaxLength, "a JSON payload") end || Payload <- Payloads]) of
        ok ->
            case nested_json_error(Elements, 1, {0, 0}, Bounds) of
                {ok, {_, Jsons}} when length(Payloads) + length(Bare) > MaxPayloads; Jsons > MaxPayloads ->
                    {error, fmt("a message carries more than ~B JSON payloads", [MaxPayloads])};
                {ok, _} -> ok;
                Error -> Error
            end;
        Error ->
            Error
    end.

%% Every <json> in urn:xmpp:json:0 at any depth: StanzaJS parses it wherever it knows the element's
%% parent (a <payload>, a forwarded <message>, a pubsub <item>, ...). The walk is bounded: a stanza
%% nested deeper than element_depth, or with more than element_count elements, is bounced.
%% {ok, {Elements, Jsons}} (how many seen so far), or the first error.
nested_json_error([], _Depth, Seen, _Bounds) ->
    {ok, Seen};
nested_json_error([{NS, #xmlel{name = Name}} = El | Rest], Depth, {Elements, Jsons}, #{element_count := MaxElements, element_depth := MaxDepth} = Bounds) ->
    Count = Elements + 1,
    IsJson = NS == ?NS_JSON andalso Name == <<"json">>,
    Children = case IsJson of
                   true -> [];
                   false -> children(El)
               end,
    Outcome = if
                  Count > MaxElements -> {error, fmt("a message holds more than ~B elements", [MaxElements])};
                  IsJson ->
                      case json_element_error(El, Bounds) of
                          ok -> {ok, {Count, Jsons + 1}};
                          Error -> Error
                      end;
                  Children == [] -> {ok, {Count, Jsons}};
                  Depth >= MaxDepth -> {error, fmt("a message nests elements more than ~B deep", [MaxDepth])};
                  true -> nested_json_error(Children, Depth + 1, {Count, Jsons}, Bounds)
              end,
    case Outcome of
        {ok, Seen} -> nested_json_error(Rest, Depth, Seen, Bounds);
        _ -> Outcome
    end.

json_element_error(Json, #{json_bytes := MaxBytes, json_depth := MaxDepth}) ->
    Text = text(Json),
    first_error([fun() -> element_free(Json, <<"a JSON payload is not valid JSON: it holds an element">>) end,
                 fun() when byte_size(Text) > MaxBytes -> {error, fmt("a JSON payload is larger than ~B bytes", [MaxBytes])};
                    () -> ok end,
                 fun() ->
                         case json_syntax_error(Text, MaxDepth) of
                             ok -> ok;
                             {error, Why} -> {error, <<"a JSON payload is not valid JSON: ", Why/binary>>}
                         end
                 end]).

%% ok when the element holds text only: JSON and real-time text are text, and an element inside
%% is no payload any sender means.
element_free(Element, Reason) ->
    case children(Element) of
        [] -> ok;
        _ -> {error, Reason}
    end.

%% ok when the attribute is 1 to Max bytes long.
attribute_error(Element, Name, Max, What) ->
    Value = attr(Name, Element),
    case Value /= <<>> andalso byte_size(Value) =< Max of
        true -> ok;
        false -> {error, fmt("~ts needs a ~ts of 1 to ~B characters", [What, Name, Max])}
    end.

chat_state_error(Elements) ->
    States = [Name || {_, #xmlel{name = Name}} <- named(any, ?NS_CHATSTATES_, Elements)],
    case [Name || Name <- States, not lists:member(Name, ?CHAT_STATES)] of
        [Unknown | _] -> {error, fmt("'~ts' is not a chat state", [Unknown])};
        [] when length(States) > 1 -> {error, <<"a message carries more than one chat state">>};
        [] -> ok
    end.

rtt_error(Elements, Bounds) ->
    Rtts = named(<<"rtt">>, ?NS_RTT, Elements),
    case first_error([fun() -> one_rtt_error(Rtt, Bounds) end || Rtt <- Rtts]) of
        ok when length(Rtts) > 1 -> {error, <<"a message carries more than one real-time text element">>};
        Outcome -> Outcome
    end.

one_rtt_error(Rtt, #{rtt_actions := MaxActions, rtt_text_bytes := MaxTextBytes}) ->
    Actions = children(Rtt),
    TextBytes = lists:sum([byte_size(text(Action)) || Action <- Actions]),
    first_error(
      [fun() -> member_or(attr(<<"event">>, Rtt), ?RTT_EVENTS, true, "real-time text has an unknown event") end,
       fun() -> count_error(attr(<<"seq">>, Rtt), "real-time text has a seq that is not a number") end
       | [fun() -> rtt_action_error(Action) end || Action <- Actions]]
      ++ [fun() when length(Actions) > MaxActions -> {error, fmt("real-time text carries more than ~B actions", [MaxActions])};
             () when TextBytes > MaxTextBytes -> {error, fmt("real-time text carries more than ~B bytes of text", [MaxTextBytes])};
             () -> ok end]).

rtt_action_error({NS, #xmlel{name = Name}} = Action) ->
    case NS == ?NS_RTT andalso lists:member(Name, ?RTT_ACTIONS) of
        false -> {error, <<"real-time text holds an element that is not an action (t, e, w)">>};
        true ->
            Reason = "a real-time text action has a position or count that is not a number",
            first_error([fun() -> count_error(attr(<<"p">>, Action), Reason) end,
                         fun() -> count_error(attr(<<"n">>, Action), Reason) end,
                         fun() -> element_free(Action, <<"a real-time text action holds an element">>) end])
    end.

count_error(Value, Reason) ->
    case is_count(Value) of
        true -> ok;
        false -> {error, list_to_binary(Reason)}
    end.

%% An absent attribute (<<>>) passes; a present one is 1 to 10 digits.
is_count(<<>>) -> true;
is_count(Value) -> byte_size(Value) =< 10 andalso lists:all(fun(C) -> C >= $0 andalso C =< $9 end, binary_to_list(Value)).

%%% Jingle

jingle_error(IQ, #{jingle_bytes := MaxBytes, jingle_contents := MaxContents, id_length := MaxId}) ->
    case named(<<"jingle">>, ?NS_JINGLE, top_elements(IQ)) of
        [] -> ok;
        [Jingle | _] ->
            Contents = named(<<"content">>, ?NS_JINGLE, children(Jingle)),
            Size = byte_size(fxml:element_to_binary(xmpp:encode(IQ))),
            first_error(
              [fun() when Size > MaxBytes -> {error, fmt("a Jingle request is larger than ~B bytes", [MaxBytes])}; () -> ok end,
               fun() -> member_or(attr(<<"action">>, Jingle), ?JINGLE_ACTIONS, false, "a Jingle request has no known action") end,
               fun() -> attribute_error(Jingle, <<"sid">>, MaxId, "a Jingle request") end
               | [fun() -> content_error(Content, MaxId) end || Content <- Contents]]
              ++ [fun() when length(Contents) > MaxContents -> {error, fmt("a Jingle request carries more than ~B contents", [MaxContents])};
                     () -> ok end])
    end.

content_error(Content, MaxId) ->
    first_error([fun() -> attribute_error(Content, <<"name">>, MaxId, "a Jingle content") end,
                 fun() -> member_or(attr(<<"creator">>, Content), ?JINGLE_CREATORS, true,
                                    "a Jingle content's creator is neither initiator nor responder") end,
                 fun() -> member_or(attr(<<"senders">>, Content), ?JINGLE_SENDERS, true,
                                    "a Jingle content's senders is not both, initiator, responder or none") end]).

%% ok when Value is one of Allowed (or absent, where AbsentOk).
member_or(<<>>, _Allowed, true, _Reason) -> ok;
member_or(Value, Allowed, _AbsentOk, Reason) ->
    case lists:member(Value, Allowed) of
        true -> ok;
        false -> {error, list_to_binary(Reason)}
    end.

%%% JSON syntax: ok when Text is one JSON text as RFC 8259 (and so JavaScript's JSON.parse) reads it,
%%% else {error, why not}. Iterative over positions (0-based), with an explicit stack of open
%%% brackets; nesting deeper than MaxDepth is refused. Expect is what may come next: value,
%%% value_or_close (after '['), key, key_or_close (after '{'), colon, next (after a value).

json_syntax_error(Text, MaxDepth) ->
    json_scan(Text, 0, [], value, MaxDepth).

json_scan(Text, Pos0, Stack, Expect, Max) ->
    Pos = skip_space(Text, Pos0),
    Char = byte_at(Text, Pos),
    Ends = Char == eof andalso (Stack /= [] orelse Expect /= next),
    if
        Ends, Pos == 0 -> {error, <<"it holds no JSON value">>};
        Ends -> {error, <<"it ends before its value is complete">>};
        Expect == next -> json_next(Text, Pos, Char, Stack, Max);
        Expect == colon, Char == $: -> json_scan(Text, Pos + 1, Stack, value, Max);
        Expect == colon -> {error, <<"a ':' is missing after a key">>};
        Expect == key_or_close, Char == $} -> json_scan(Text, Pos + 1, tl(Stack), next, Max);
        Expect == key orelse Expect == key_or_close, Char == $" -> json_continue(skip_json_string(Text, Pos + 1), Text, Stack, colon, Max);
        Expect == key orelse Expect == key_or_close -> {error, <<"an object key is not a string">>};
        Expect == value_or_close, Char == $] -> json_scan(Text, Pos + 1, tl(Stack), next, Max);
        Char == ${ orelse Char == $[, length(Stack) >= Max -> {error, fmt("it is nested deeper than ~B levels", [Max])};
        Char == ${ -> json_scan(Text, Pos + 1, [${ | Stack], key_or_close, Max);
        Char == $[ -> json_scan(Text, Pos + 1, [$[ | Stack], value_or_close, Max);
        Char == $" -> json_continue(skip_json_string(Text, Pos + 1), Text, Stack, next, Max);
        true -> json_continue(skip_json_literal(Text, Pos), Text, Stack, next, Max)
    end.

json_next(Text, Pos, eof, [], _Max) when Pos >= byte_size(Text) -> ok;
json_next(_Text, _Pos, _Char, [], _Max) -> {error, <<"there is more after the JSON value">>};
json_next(Text, Pos, $,, [Top | _] = Stack, Max) ->
    json_scan(Text, Pos + 1, Stack, case Top of ${ -> key; $[ -> value end, Max);
json_next(Text, Pos, $}, [${ | Stack], Max) -> json_scan(Text, Pos + 1, Stack, next, Max);
json_next(Text, Pos, $], [$[ | Stack], Max) -> json_scan(Text, Pos + 1, Stack, next, Max);
json_next(_Text, _Pos, _Char, _Stack, _Max) -> {error, <<"a ',' or a closing bracket is missing">>}.

json_continue({ok, Pos}, Text, Stack, Expect, Max) -> json_scan(Text, Pos, Stack, Expect, Max);
json_continue({error, _} = Error, _Text, _Stack, _Expect, _Max) -> Error.

skip_space(Text, Pos) ->
    case byte_at(Text, Pos) of
        C when C == $\s; C == $\t; C == $\r; C == $\n -> skip_space(Text, Pos + 1);
        _ -> Pos
    end.

byte_at(Text, Pos) when Pos < byte_size(Text) -> binary:at(Text, Pos);
byte_at(_Text, _Pos) -> eof.

%% The string whose contents start at Pos (after its opening quote): {ok, the position after it}.
skip_json_string(Text, Pos) ->
    case byte_at(Text, Pos) of
        eof -> {error, <<"a string is not closed">>};
        $" -> {ok, Pos + 1};
        $\\ ->
            case byte_at(Text, Pos + 1) of
                $u ->
                    case lists:all(fun is_hex/1, [byte_at(Text, Pos + Offset) || Offset <- [2, 3, 4, 5]]) of
                        true -> skip_json_string(Text, Pos + 6);
                        false -> {error, <<"a \\u escape is not followed by four hex digits">>}
                    end;
                Escaped ->
                    case lists:member(Escaped, ?JSON_ESCAPES) of
                        true -> skip_json_string(Text, Pos + 2);
                        false -> {error, <<"a string holds an unknown escape">>}
                    end
            end;
        C when C < 32 -> {error, <<"a string holds a raw control character">>};
        _ -> skip_json_string(Text, Pos + 1)
    end.

is_hex(C) when is_integer(C) -> (C >= $0 andalso C =< $9) orelse (C >= $a andalso C =< $f) orelse (C >= $A andalso C =< $F);
is_hex(eof) -> false.

skip_json_literal(Text, Pos) ->
    case Text of
        <<_:Pos/binary, "true", _/binary>> -> {ok, Pos + 4};
        <<_:Pos/binary, "null", _/binary>> -> {ok, Pos + 4};
        <<_:Pos/binary, "false", _/binary>> -> {ok, Pos + 5};
        _ -> skip_json_number(Text, Pos)
    end.

%% A number as RFC 8259 writes it: no leading zeros, digits after '.' and in the exponent.
skip_json_number(Text, Pos) ->
    IntStart = case byte_at(Text, Pos) of $- -> Pos + 1; _ -> Pos end,
    IntEnd = skip_digits(Text, IntStart),
    if
        IntEnd == IntStart -> {error, <<"a value is not valid JSON">>};
        IntEnd - IntStart > 1, binary_part(Text, IntStart, 1) == <<"0">> -> {error, <<"a value is not valid JSON">>};
        true -> json_fraction(Text, IntEnd)
    end.

json_fraction(Text, Pos) ->
    case byte_at(Text, Pos) of
        $. ->
            case skip_digits(Text, Pos + 1) of
                End when End == Pos + 1 -> {error, <<"a number has no digits after its point">>};
                End -> json_exponent(Text, End)
            end;
        _ ->
            json_exponent(Text, Pos)
    end.

json_exponent(Text, Pos) ->
    case byte_at(Text, Pos) of
        E when E == $e; E == $E ->
            DigitsStart = case byte_at(Text, Pos + 1) of Sign when Sign == $+; Sign == $- -> Pos + 2; _ -> Pos + 1 end,
            case skip_digits(Text, DigitsStart) of
                DigitsStart -> {error, <<"a number has no digits in its exponent">>};
                End -> {ok, End}
            end;
        _ ->
            {ok, Pos}
    end.

skip_digits(Text, Pos) ->
    case byte_at(Text, Pos) of
        C when is_integer(C), C >= $0, C =< $9 -> skip_digits(Text, Pos + 1);
        _ -> Pos
    end.

fmt(Format, Args) ->
    iolist_to_binary(io_lib:format(Format, Args)).
