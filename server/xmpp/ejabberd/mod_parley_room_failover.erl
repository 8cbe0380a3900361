%% A room outlives the node it ran on. A room's settings (owner, lock, bans) and its rid are kept in
%% Mnesia tables with a copy on every node of the cluster (mod_muc_parley.erl: on disk before they
%% are answered), but the room runs as a process on one node, and who is in it lives only in that
%% process. When that node dies, the room's people on the other nodes would go on believing they
%% are in a room that no longer runs, and nothing would tell them.
%%
%% So each session watches (monitors) the process of every room it is in, from its own self-
%% presence (status 110) until its own unavailable presence. A room process that ends while still
%% watched ended without telling the session (its node died, or it crashed: a room that removes
%% someone, or is destroyed, sends them their unavailable presence before it ends, and that
%% arrives first). The session is then told at once what ejabberd tells the occupants of a room it
%% shuts down: an unavailable self-presence with status 332. Parley's client rejoins at once, as
%% after a reconnect (RoomsDomain), and that join starts the room again on a live node from its
%% stored copy (mod_parley:start_alone), with the same owner, lock, bans and rid. The people of the
%% dead node reconnect through another node (one address in front of the gateways: README "How it
%% scales out") and rejoin the same way.
%%
%% The other way round, the rooms that run on this node let go of the dead node's people: their
%% sessions died with it, and nothing would send their rooms a leave. `departure_grace` seconds
%% after a node goes down (the stream resumption window, as a vanished session on a live node
%% gets), an occupant of a room here whose session is on no node (they have not come back at the
%% same address) leaves it, as if their session had ended.
-module(mod_parley_room_failover).
-behaviour(gen_mod).
-behaviour(gen_server).

-export([start/2, stop/1, reload/3, depends/2, mod_opt_type/1, mod_options/1, mod_doc/0]).
-export([user_receive_packet/1, c2s_handle_info/2, c2s_copy_session/2, online_room/2]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2, code_change/3]).

-include("xmpp.hrl").
-include("logger.hrl").
-include("mod_muc.hrl").
-include("mod_muc_room.hrl").

%% In a session's state: the rooms it is in, #{{Name, MucHost} => {MonitorRef, RoomPid, Nick}}.
-define(WATCHED, parley_watched_rooms).
-define(GONE_REASON, <<"The room's server went away; rejoin to bring the room back">>).

start(Host, Opts) ->
    ejabberd_hooks:add(user_receive_packet, Host, ?MODULE, user_receive_packet, 50),
    ejabberd_hooks:add(c2s_handle_info, Host, ?MODULE, c2s_handle_info, 50),
    ejabberd_hooks:add(c2s_copy_session, Host, ?MODULE, c2s_copy_session, 50),
    gen_mod:start_child(?MODULE, Host, Opts).

stop(Host) ->
    ejabberd_hooks:delete(user_receive_packet, Host, ?MODULE, user_receive_packet, 50),
    ejabberd_hooks:delete(c2s_handle_info, Host, ?MODULE, c2s_handle_info, 50),
    ejabberd_hooks:delete(c2s_copy_session, Host, ?MODULE, c2s_copy_session, 50),
    gen_mod:stop_child(?MODULE, Host).

reload(Host, NewOpts, _OldOpts) ->
    stop(Host),
    start(Host, NewOpts).

depends(_Host, _Opts) -> [{mod_muc, hard}].

mod_opt_type(departure_grace) -> econf:pos_int().

mod_options(_Host) -> [{departure_grace, 10}].

mod_doc() -> #{desc => <<"Parley: occupants of a room whose node died are told at once (server/xmpp/ejabberd/mod_parley_room_failover.erl)">>}.

%% The room's running process, if its node is up. mod_muc forgets the rooms of a node that went
%% down once Mnesia says so; a join that comes first must not be sent to a process that is gone.
online_room(Name, MucHost) ->
    case mod_muc:find_online_room(Name, MucHost) of
        {ok, Pid} = Found ->
            case lists:member(node(Pid), [node() | nodes()]) of
                true -> Found;
                false -> forget_registration(Name, MucHost, Pid), error
            end;
        error ->
            error
    end.

forget_registration(Name, MucHost, Pid) ->
    mnesia:dirty_delete_object(#muc_online_room{name_host = {Name, MucHost}, pid = Pid}).

%% In the session's process, for each stanza it receives: our own presences from a room start and
%% end the watch. Our self-presence (status 110) starts it; our occupant's unavailable presence
%% ends it, with or without 110 (a destroy's has none; a nick change is an unavailable then an
%% available one).
user_receive_packet({#presence{from = #jid{luser = Name, lserver = MucHost, lresource = Nick}, type = available} = Presence, State})
  when Name /= <<>>, Nick /= <<>> ->
    case xmpp:get_subtag(Presence, #muc_user{}) of
        #muc_user{status_codes = Codes} ->
            case lists:member(110, Codes) of
                true -> {Presence, watch({Name, MucHost}, Nick, State)};
                false -> {Presence, State}
            end;
        false ->
            {Presence, State}
    end;
user_receive_packet({#presence{from = #jid{luser = Name, lserver = MucHost, lresource = Nick}, type = unavailable} = Presence, State})
  when Name /= <<>>, Nick /= <<>> ->
    case maps:find({Name, MucHost}, maps:get(?WATCHED, State, #{})) of
        {ok, {_, _, Nick}} -> {Presence, unwatch({Name, MucHost}, State)};
        _ -> {Presence, State}
    end;
user_receive_packet(Acc) ->
    Acc.

watch({Name, MucHost} = Room, Nick, State) ->
    case {online_room(Name, MucHost), maps:find(Room, maps:get(?WATCHED, State, #{}))} of
        {{ok, Pid}, {ok, {_, Pid, Nick}}} ->
            State;
        {{ok, Pid}, _} ->
            #{?WATCHED := Watched} = Unwatched = unwatch(Room, State),
            Unwatched#{?WATCHED => Watched#{Room => {erlang:monitor(process, Pid), Pid, Nick}}};
        {error, _} ->
            State
    end.

unwatch(Room, State) ->
    Watched = maps:get(?WATCHED, State, #{}),
    case maps:take(Room, Watched) of
        {{Ref, _, _}, Rest} -> erlang:demonitor(Ref, [flush]), State#{?WATCHED => Rest};
        error -> State#{?WATCHED => Watched}
    end.

c2s_handle_info(#{jid := JID} = State, {'DOWN', Ref, process, Pid, Reason}) ->
    Watched = maps:get(?WATCHED, State, #{}),
    case [Room || {Room, {Watch, _, _}} <- maps:to_list(Watched), Watch == Ref] of
        [{Name, MucHost} = Room] ->
            {_, _, Nick} = maps:get(Room, Watched),
            forget_registration(Name, MucHost, Pid),
            ?INFO_MSG("Room ~ts@~ts ended (~p) while ~ts was in it: telling them to rejoin", [Name, MucHost, Reason, jid:encode(JID)]),
            Gone = #presence{from = jid:make(Name, MucHost, Nick), to = JID, type = unavailable,
                             sub_els = [#muc_user{items = [#muc_item{affiliation = none, role = none, reason = ?GONE_REASON}],
                                                  status_codes = [332, 110]}]},
            {stop, ejabberd_c2s:send(State#{?WATCHED => maps:remove(Room, Watched)}, Gone)};
        [] ->
            State
    end;
c2s_handle_info(State, _Info) ->
    State.

%% Stream resumption moves the session to a new process: the watches go with it.
c2s_copy_session(State, #{?WATCHED := Watched}) ->
    State#{?WATCHED => maps:map(fun(_, {_, Pid, Nick}) -> {erlang:monitor(process, Pid), Pid, Nick} end, Watched)};
c2s_copy_session(State, _OldState) ->
    State.

%%% The rooms here let go of a dead node's people (one process per host).

init([Host, Opts]) ->
    ok = net_kernel:monitor_nodes(true),
    {ok, #{host => Host, grace => timer:seconds(gen_mod:get_opt(departure_grace, Opts))}}.

handle_info({nodedown, Node}, #{grace := Grace} = State) ->
    erlang:send_after(Grace, self(), {let_go, Node}),
    {noreply, State};
handle_info({let_go, Node}, #{host := Host} = State) ->
    MucHosts = gen_mod:get_opt_hosts(gen_mod:get_module_opts(Host, mod_muc)),
    Gone = lists:append([departed(Name, MucHost, Pid) || MucHost <- MucHosts, {Name, _, Pid} <- mod_muc:get_online_rooms(MucHost),
                                                          node(Pid) == node()]),
    case Gone of
        [] -> ok;
        _ -> ?INFO_MSG("~B occupants of rooms here had their sessions on ~p, which went down: they leave", [length(Gone), Node])
    end,
    {noreply, State};
handle_info(_Info, State) ->
    {noreply, State}.

%% A departed occupant leaves the room as when their session ends: the room gets their
%% unavailable presence, removes them and tells the others.
departed(Name, MucHost, Pid) ->
    case catch mod_muc_room:get_state(Pid) of
        {ok, #state{users = Users}} ->
            [mod_muc_room:route(Pid, #presence{from = JID, to = jid:make(Name, MucHost, Nick), type = unavailable})
             || #user{jid = JID, nick = Nick} <- maps:values(Users), not has_session(JID)];
        _ ->
            []
    end.

has_session(#jid{luser = User, lserver = Server, lresource = Resource}) ->
    ejabberd_sm:get_session_pid(User, Server, Resource) /= none.

handle_call(_Request, _From, State) -> {reply, ok, State}.
handle_cast(_Request, State) -> {noreply, State}.
terminate(_Reason, _State) -> ok.
code_change(_OldVsn, State, _Extra) -> {ok, State}.
