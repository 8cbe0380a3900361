%% Parley's MUC facts on ejabberd, the counterpart of the Prosody modules in ../prosody/modules:
%% - logins: ejabberd's native JWT auth verifies the token; this module also requires `sub` to be
%%   the login user and no `aud` (the relay's tokens carry one), and keeps the verified `type` and
%%   `customerData` claims on the session (mod_auth_parley_token.lua);
%% - every occupant presence carries <user xmlns='https://talky.io/ns/core' sid rid type>customerData
%%   </user> (mod_muc_parley_user.lua; PROTOCOL.md);
%% - a groupchat message keeps its <nick> (XEP-0172), which ejabberd's rooms remove and clients
%%   show as the sender's name (PROTOCOL.md);
%% - occupant limit with service-unavailable, after the ban and password checks
%%   (mod_muc_parley_max_occupants.lua);
%% - rooms that wait for a host: a guest whose join would create a room gets recipient-unavailable
%%   (mod_muc_parley_room_start.lua); and only a join (a presence with the MUC <x/>, not any
%%   presence) starts a room or enters one, as on Prosody;
%% - in a cluster, a room starts once, however many first joins on different nodes race;
%% - an owner's config form with an empty secret unlocks the room (PROTOCOL.md "Unlock"), where
%%   ejabberd would refuse a protected room with a blank password;
%% - GET /parley-stats for tests and operators (mod_parley_stats.lua).
%% Beside it: mod_parley_payload_guard.erl (the payload guard), mod_parley_lock_admitted.erl
%% (locking a room keeps its people), mod_parley_room_expiry.erl,
%% mod_parley_room_failover.erl (a room outlives its node) and mod_muc_parley.erl (rooms on disk).
-module(mod_parley).
-behaviour(gen_mod).

-export([start/2, stop/1, reload/3, depends/2, mod_opt_type/1, mod_options/1, mod_doc/0]).
-export([check_decoded_jwt/5, c2s_session_opened/1, muc_filter_presence/3, muc_filter_message/3, muc_process_iq/2,
         filter_packet/1, remove_room/3, process/2, muc_host/1]).

-include("xmpp.hrl").
-include("logger.hrl").
-include("ejabberd_http.hrl").
-include("mod_muc_room.hrl").

-define(NS_TALKY, <<"https://talky.io/ns/core">>).
-define(PENDING_IDENTITY, parley_pending_identity).
-define(GUEST, {<<"guest">>, <<"{}">>}).
%% How long a first join waits, holding the room's name, for mod_muc's worker to start the room.
-define(ROOM_START_WAIT_MS, 5000).
-define(ROOM_START_POLL_MS, 5).

%% A room's stable id (<user rid>), kept until the room is destroyed.
-record(parley_room_id, {room :: {binary(), binary()}, rid :: binary()}).

start(Host, Opts) ->
    ejabberd_mnesia:create(?MODULE, parley_room_id,
                           [{disc_copies, [node()]}, {attributes, record_info(fields, parley_room_id)}]),
    persistent_term:put({?MODULE, instance_id}, gen_mod:get_opt(instance_id, Opts)),
    ejabberd_hooks:add(check_decoded_jwt, Host, ?MODULE, check_decoded_jwt, 50),
    ejabberd_hooks:add(c2s_session_opened, Host, ?MODULE, c2s_session_opened, 50),
    ejabberd_hooks:add(muc_filter_presence, Host, ?MODULE, muc_filter_presence, 50),
    ejabberd_hooks:add(muc_filter_message, Host, ?MODULE, muc_filter_message, 50),
    ejabberd_hooks:add(muc_process_iq, Host, ?MODULE, muc_process_iq, 50),
    ejabberd_hooks:add(remove_room, Host, ?MODULE, remove_room, 50),
    [persistent_term:put({?MODULE, muc_host, MucHost}, {Host, gen_mod:get_opt(rooms_need_host, Opts)})
     || MucHost <- muc_hosts(Host)],
    ejabberd_hooks:add(filter_packet, ?MODULE, filter_packet, 50),
    ok.

stop(Host) ->
    ejabberd_hooks:delete(check_decoded_jwt, Host, ?MODULE, check_decoded_jwt, 50),
    ejabberd_hooks:delete(c2s_session_opened, Host, ?MODULE, c2s_session_opened, 50),
    ejabberd_hooks:delete(muc_filter_presence, Host, ?MODULE, muc_filter_presence, 50),
    ejabberd_hooks:delete(muc_filter_message, Host, ?MODULE, muc_filter_message, 50),
    ejabberd_hooks:delete(muc_process_iq, Host, ?MODULE, muc_process_iq, 50),
    ejabberd_hooks:delete(remove_room, Host, ?MODULE, remove_room, 50),
    ejabberd_hooks:delete(filter_packet, ?MODULE, filter_packet, 50),
    [persistent_term:erase({?MODULE, muc_host, MucHost}) || MucHost <- muc_hosts(Host)],
    ok.

reload(Host, NewOpts, _OldOpts) ->
    stop(Host),
    start(Host, NewOpts).

depends(_Host, _Opts) -> [{mod_muc, hard}].

mod_opt_type(max_occupants) -> econf:pos_int(unlimited);
mod_opt_type(rooms_need_host) -> econf:bool();
mod_opt_type(instance_id) -> econf:binary().

mod_options(_Host) -> [{max_occupants, unlimited}, {rooms_need_host, false}, {instance_id, <<>>}].

mod_doc() -> #{desc => <<"Parley's room rules and presence facts (server/xmpp/ejabberd/mod_parley.erl)">>}.

muc_hosts(Host) ->
    gen_mod:get_opt_hosts(gen_mod:get_module_opts(Host, mod_muc)).

%%% Logins

%% Runs before ejabberd's own check (priority 100, which checks signature, exp and the jid claim),
%% in the c2s process that will open the session.
check_decoded_jwt(true, Fields, _Signature, _Server, User) ->
    Sub = maps:get(<<"sub">>, Fields, undefined),
    case is_binary(Sub) andalso jid:nodeprep(Sub) == User andalso not maps:is_key(<<"aud">>, Fields) of
        true ->
            put(?PENDING_IDENTITY, identity_of_claims(Fields)),
            true;
        false ->
            {stop, false}
    end;
check_decoded_jwt(Acc, _Fields, _Signature, _Server, _User) ->
    Acc.

identity_of_claims(Fields) ->
    Type = case maps:get(<<"type">>, Fields, undefined) of
               T when is_binary(T), T /= <<>> -> T;
               _ -> <<"guest">>
           end,
    CustomerData = case maps:get(<<"customerData">>, Fields, undefined) of
                       Object when is_map(Object) -> iolist_to_binary(jiffy:encode(Object));
                       _ -> <<"{}">>
                   end,
    {Type, CustomerData}.

%% Session info lives in ejabberd's session table, which every node of a cluster sees.
c2s_session_opened(#{user := User, server := Server, resource := Resource} = State) ->
    case erase(?PENDING_IDENTITY) of
        undefined -> ok;
        Identity -> ejabberd_sm:set_user_info(User, Server, Resource, parley_identity, Identity)
    end,
    State.

session_identity(#jid{user = User, server = Server, resource = Resource}) ->
    case ejabberd_sm:get_user_info(User, Server, Resource) of
        offline -> undefined;
        Info -> proplists:get_value(parley_identity, Info)
    end.

%%% Occupant presences
%%%
%%% The room process remembers each occupant's identity (in its process dictionary) from the
%%% presences that reach it, and every occupant presence it routes gets the <user> element on its
%%% way out (filter_packet): the ones it builds from occupants' presences, and also those ejabberd
%%% builds on its own (a kick, an occupant expelled because its vanished session bounced a
%%% message, the room's destruction). The leave presence of a dropped connection comes after the
%%% session, and its claims, are gone.

muc_filter_presence(#presence{from = From, type = Type} = Presence,
                    #state{users = Users} = Room, Nick) ->
    IsJoin = Type == available andalso not maps:is_key(jid:tolower(From), Users),
    case IsJoin andalso refusal_of_join(Presence, Room) of
        #stanza_error{} = Error -> refuse(Presence, Error);
        _ -> occupant_presence(Presence, Room, Nick)
    end;
muc_filter_presence(Acc, _Room, _Nick) ->
    Acc.

%% A presence from someone not in the room is a join only with the MUC <x/>, as on Prosody: ejabberd
%% would take any (a groupchat 1.0 join), such as a call update that crossed a kick.
%% A full room still says "banned" or "password required" first, as Prosody's does (its ban and
%% password checks run before the occupant limit; mod_muc_parley_max_occupants.lua): this hook runs
%% before mod_muc_room:add_new_user's checks, so a join the room will refuse anyway (an outcast, a
%% nonmember of a members-only room, a wrong or missing password) is left to the room to answer.
%% mod_parley_lock_admitted's hook (priority 40) has already given an admitted person's join the
%% password, so they are told the room is full.
refusal_of_join(Presence, #state{server_host = ServerHost, users = Users} = Room) ->
    Lang = xmpp:get_lang(Presence),
    case xmpp:has_subtag(Presence, #muc{}) of
        false -> xmpp:err_item_not_found(<<"You are not in the room">>, Lang);
        true ->
            case is_full(ServerHost, Users) andalso room_would_admit(Presence, Room) of
                true -> xmpp:err_service_unavailable(<<"The room is full">>, Lang);
                false -> none
            end
    end.

%% mod_muc_room:add_new_user's ban and membership check (an occupant's initial role none) and its
%% password check (check_password), on the room's state. Room owners need the password there too;
%% only a service admin (mod_muc access_admin, nobody in Parley's config) goes without.
room_would_admit(#presence{from = From} = Presence, #state{config = Config} = Room) ->
    Affiliation = mod_muc_room:get_affiliation(From, Room),
    MayEnter = case Affiliation of
                   outcast -> false;
                   none -> not Config#config.members_only;
                   _ -> true
               end,
    MayEnter andalso has_password(Presence, Config).

has_password(_Presence, #config{password_protected = false}) ->
    true;
has_password(Presence, #config{password = Password}) ->
    case xmpp:get_subtag(Presence, #muc{}) of
        #muc{password = Password} -> true;
        _ -> false
    end.

occupant_presence(#presence{from = From} = Presence, #state{nicks = Nicks} = Room, Nick) ->
    Identity = case session_identity(From) of
                   undefined -> remembered_identity(Nick);
                   Known -> Known
               end,
    forget_departed(Nicks),
    put({?MODULE, occupant, Nick}, Identity),
    put({?MODULE, room_id}, room_id(Room)),
    without_user_element(Presence).

is_full(ServerHost, Users) ->
    case gen_mod:get_module_opt(ServerHost, ?MODULE, max_occupants) of
        unlimited -> false;
        Max -> maps:size(Users) >= Max
    end.

remembered_identity(Nick) ->
    case get({?MODULE, occupant, Nick}) of
        undefined -> ?GUEST;
        Identity -> Identity
    end.

%% Occupants who have left: their last presences went out with the event that removed them.
forget_departed(Nicks) ->
    [erase(Key) || {{?MODULE, occupant, Nick} = Key, _} <- get(), not maps:is_key(Nick, Nicks)].

%% A client could forge a <user>: only the server's goes out.
without_user_element(#presence{sub_els = Els} = Presence) ->
    Presence#presence{sub_els = [El || El <- Els, not is_user_element(El)]}.

is_user_element(#xmlel{name = <<"user">>} = El) -> fxml:get_tag_attr_s(<<"xmlns">>, El) == ?NS_TALKY;
is_user_element(_) -> false.

%% In a room process: an occupant presence on its way out gets the occupant's <user> element.
with_user_element(#presence{from = #jid{lresource = Nick}, sub_els = Els} = Presence) ->
    case {get({?MODULE, occupant, Nick}), lists:any(fun is_user_element/1, Els)} of
        {{Type, CustomerData}, false} ->
            User = #xmlel{name = <<"user">>,
                          attrs = [{<<"xmlns">>, ?NS_TALKY}, {<<"sid">>, Nick},
                                   {<<"rid">>, get({?MODULE, room_id})}, {<<"type">>, Type}],
                          children = [{xmlcdata, CustomerData}]},
            Presence#presence{sub_els = Els ++ [User]};
        _ ->
            Presence
    end.

%%% Groupchat messages: the room removes <nick> after this hook; it travels as metadata instead,
%%% back into the message as it leaves the room process (filter_packet).

muc_filter_message(#message{} = Message, _Room, _FromNick) ->
    case xmpp:get_subtag(Message, #nick{}) of
        #nick{} = Nick -> xmpp:put_meta(Message, parley_nick, Nick);
        false -> Message
    end;
muc_filter_message(Acc, _Room, _FromNick) ->
    Acc.

with_nick(Message) ->
    case xmpp:get_meta(Message, parley_nick, undefined) of
        undefined -> Message;
        Nick -> xmpp:set_subtag(xmpp:del_meta(Message, parley_nick), Nick)
    end.

room_id(#state{room = Name, host = Host}) ->
    case mnesia:dirty_read(parley_room_id, {Name, Host}) of
        [#parley_room_id{rid = Rid}] ->
            Rid;
        [] ->
            Rid = new_uuid(),
            mnesia:dirty_write(#parley_room_id{room = {Name, Host}, rid = Rid}),
            %% On disk before the first self-presence carries it: the rid is the room's for good.
            mod_muc_parley:on_disk(),
            Rid
    end.

%% A random (version 4) UUID, lowercase, as Prosody's util.uuid makes them.
new_uuid() ->
    <<A:32, B:16, C:16, D:16, E:48>> = crypto:strong_rand_bytes(16),
    iolist_to_binary(io_lib:format("~8.16.0b-~4.16.0b-~4.16.0b-~4.16.0b-~12.16.0b",
                                   [A, B, (C band 16#0fff) bor 16#4000, (D band 16#3fff) bor 16#8000, E])).

remove_room(_ServerHost, Name, Host) ->
    mnesia:dirty_delete(parley_room_id, {Name, Host}).

%%% Unlocking

muc_process_iq(#iq{type = set, sub_els = [#muc_owner{config = #xdata{type = submit, fields = Fields} = Form} = Owner]} = IQ,
               _Room) ->
    case lists:keyfind(<<"muc#roomconfig_roomsecret">>, #xdata_field.var, Fields) of
        #xdata_field{values = Secret} when Secret == []; Secret == [<<>>] ->
            Unprotected = [case Field of
                               #xdata_field{var = <<"muc#roomconfig_passwordprotectedroom">>} ->
                                   Field#xdata_field{values = [<<"0">>]};
                               _ ->
                                   Field
                           end || Field <- Fields],
            IQ#iq{sub_els = [Owner#muc_owner{config = Form#xdata{fields = Unprotected}}]};
        _ ->
            IQ
    end;
muc_process_iq(IQ, _Room) ->
    IQ.

%%% Routing: occupant presences and messages on their way out; joins into rooms that wait for a host.

filter_packet(#presence{from = #jid{lserver = FromHost}, to = #jid{luser = Name, lserver = ToHost, lresource = Nick}} = Presence) ->
    case {muc_host(FromHost), muc_host(ToHost)} of
        {{_, _}, _} ->
            with_user_element(Presence);
        {_, {ServerHost, NeedsHost}} when Presence#presence.type == available, Name /= <<>>, Nick /= <<>> ->
            case starting_room(Presence, ServerHost, NeedsHost) of
                drop -> drop;
                Join -> start_alone(Join, Name, ToHost)
            end;
        _ ->
            Presence
    end;
filter_packet(#message{from = #jid{lserver = FromHost}} = Message) ->
    case muc_host(FromHost) of
        undefined -> Message;
        _ -> with_nick(Message)
    end;
filter_packet(Packet) ->
    Packet.

%% {ServerHost, RoomsNeedHost} for a MUC host of this server (also for mod_parley_lock_admitted), or undefined.
muc_host(Host) ->
    persistent_term:get({?MODULE, muc_host, Host}, undefined).

%% A presence to a room that does not exist starts it only when it is a join (with the MUC <x/>),
%% as on Prosody: ejabberd would start one on any presence, such as a call update that crosses
%% the room's destruction. Where rooms wait for a host, only a host's join starts one, and rooms
%% being persistent, a guest entering a room nobody is in waits for a host as well.
starting_room(#presence{from = From, to = #jid{luser = Name, lserver = MucHost}} = Presence, ServerHost, NeedsHost) ->
    IsJoin = xmpp:has_subtag(Presence, #muc{}),
    case room_exists(ServerHost, MucHost, Name) of
        true when IsJoin, NeedsHost ->
            case is_host(From) orelse not room_is_empty(Name, MucHost) of
                true -> Presence;
                false -> refuse(Presence, xmpp:err_recipient_unavailable(<<"The room has not started yet">>, xmpp:get_lang(Presence)))
            end;
        true ->
            Presence;
        false when not IsJoin ->
            refuse(Presence, xmpp:err_item_not_found(<<"The room does not exist">>, xmpp:get_lang(Presence)));
        false when NeedsHost ->
            case is_host(From) of
                true -> Presence;
                false -> refuse(Presence, xmpp:err_recipient_unavailable(<<"The room has not started yet">>, xmpp:get_lang(Presence)))
            end;
        false ->
            Presence
    end.

%% A room that is not running starts once in the cluster: ejabberd's mod_muc registers a new room
%% in a table whose copies on the other nodes are updated after the fact, without checking whether
%% another node started one meanwhile, so two first joins on two nodes at once would make two rooms
%% of one name, each with part of the people. Under a cluster-wide lock on the room's name, a join
%% for a room this node does not know goes to the room registered under that name in `global`
%% (which every node sees at once), or else routes itself to mod_muc there and then (as the router
%% would), whose worker starts the room on this node; the new room is registered once it runs,
%% before the lock is released, and leaves `global` when its process ends. A room whose node died
%% is not running, whatever a table has not yet caught up with (mod_parley_room_failover.erl): the
%% first join after the death starts it here again, from its stored copy.
start_alone(Join, Name, MucHost) ->
    case mod_parley_room_failover:online_room(Name, MucHost) of
        {ok, _} ->
            Join;
        error ->
            Key = {?MODULE, room, Name, MucHost},
            global:trans({Key, self()},
                         fun() ->
                                 Registered = global:whereis_name(Key),
                                 case is_pid(Registered) andalso lists:member(node(Registered), [node() | nodes()]) of
                                     true -> mod_muc_room:route(Registered, Join);
                                     false -> start_here(Join, Key, Name, MucHost)
                                 end
                         end),
            drop
    end.

start_here(Join, Key, Name, MucHost) ->
    mod_muc:route(Join),
    case started_room(Name, MucHost, ?ROOM_START_WAIT_MS) of
        {ok, Pid} -> global:re_register_name(Key, Pid);
        error -> ok
    end.

%% mod_muc hands a join for a room it does not know to a worker process, which starts the room.
started_room(Name, MucHost, WaitMs) ->
    case mod_muc:find_online_room(Name, MucHost) of
        {ok, _} = Found -> Found;
        error when WaitMs =< 0 -> error;
        error -> timer:sleep(?ROOM_START_POLL_MS), started_room(Name, MucHost, WaitMs - ?ROOM_START_POLL_MS)
    end.

refuse(Presence, Error) ->
    ejabberd_router:route_error(Presence, Error),
    drop.

room_exists(ServerHost, MucHost, Name) ->
    mod_muc:find_online_room(Name, MucHost) /= error
        orelse mod_muc:restore_room(ServerHost, MucHost, Name) /= error.

%% A room kept only in the database (not running) has nobody in it.
room_is_empty(Name, MucHost) ->
    case mod_muc:find_online_room(Name, MucHost) of
        {ok, Pid} -> occupants(Pid) == 0;
        error -> true
    end.

is_host(From) ->
    case session_identity(From) of
        {<<"registered">>, _} -> true;
        _ -> false
    end.

%%% GET /parley-stats: {"clientSessions": n, "rooms": {"<room jid>": {"occupants": n}}, "rejectedPayloads": n},
%%% loopback only. clientSessions counts this node's sessions; rooms lists the live rooms of every
%%% MUC service; rejectedPayloads counts the stanzas this node's payload guard bounced.
%%% X-Parley-Instance tells the launcher that the answer comes from the server it started.

process([], #request{method = 'GET', ip = {IP, _Port}}) ->
    case is_loopback(IP) of
        true ->
            Body = #{<<"clientSessions">> => length(ejabberd_sm:dirty_get_my_sessions_list()),
                     <<"rooms">> => live_rooms(),
                     <<"rejectedPayloads">> => mod_parley_payload_guard:rejected()},
            {200, [{<<"Content-Type">>, <<"application/json">>},
                   {<<"X-Parley-Instance">>, persistent_term:get({?MODULE, instance_id}, <<>>)}],
             jiffy:encode(Body)};
        false ->
            {403, [], <<"Forbidden">>}
    end;
process(_Path, _Request) ->
    {404, [], <<"Not Found">>}.

is_loopback({127, _, _, _}) -> true;
is_loopback({0, 0, 0, 0, 0, 0, 0, 1}) -> true;
is_loopback({0, 0, 0, 0, 0, 16#ffff, A, _}) -> A bsr 8 == 127;
is_loopback(_) -> false.

live_rooms() ->
    maps:from_list(
      [{jid:encode(jid:make(Name, MucHost)), #{<<"occupants">> => occupants(Pid)}}
       || ServerHost <- ejabberd_option:hosts(),
          gen_mod:is_loaded(ServerHost, ?MODULE),
          MucHost <- muc_hosts(ServerHost),
          {Name, _, Pid} <- mod_muc:get_online_rooms(MucHost)]).

occupants(Pid) ->
    case mod_muc_room:get_state(Pid) of
        {ok, #state{users = Users}} -> maps:size(Users);
        _ -> 0
    end.
