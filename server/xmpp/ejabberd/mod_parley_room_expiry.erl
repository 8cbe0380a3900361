%% Rooms that remember, until nobody has used them for a while: rooms are persistent (kept in Mnesia
%% with their owner, lock and bans, ejabberdConfig.ts), and a room nobody has been in for
%% `idle_expiry` seconds is destroyed, bans and all — the counterpart of the expiry in
%% ../prosody/modules/mod_muc_parley_room_persistence.lua.
%%
%% When a room emptied is kept in a Mnesia table (so it outlives restarts and every node of a
%% cluster sees it): written when someone leaves, removed when someone joins. A sweep (every
%% min(idle_expiry, 60) s, at least 1 s) on each node looks at the rooms that run on that node:
%% a room with people in it has no record; an empty one without a record (the server was killed
%% while people were in it) counts as empty from that sweep on; an empty one past its time goes.
-module(mod_parley_room_expiry).
-behaviour(gen_mod).

-export([start/2, stop/1, reload/3, depends/2, mod_opt_type/1, mod_options/1, mod_doc/0]).
-export([join_room/4, leave_room/4, remove_room/3, sweep/2]).

-include("xmpp.hrl").
-include("logger.hrl").
-include("mod_muc_room.hrl").

-define(SWEEP, {?MODULE, sweep}).

%% Since when a room (name, MUC host) has had nobody in it, in seconds since the epoch.
-record(parley_room_empty, {room :: {binary(), binary()}, since :: integer()}).

start(Host, Opts) ->
    ejabberd_mnesia:create(?MODULE, parley_room_empty,
                           [{disc_copies, [node()]}, {attributes, record_info(fields, parley_room_empty)}]),
    ejabberd_hooks:add(join_room, Host, ?MODULE, join_room, 50),
    ejabberd_hooks:add(leave_room, Host, ?MODULE, leave_room, 50),
    ejabberd_hooks:add(remove_room, Host, ?MODULE, remove_room, 50),
    IdleExpiry = gen_mod:get_opt(idle_expiry, Opts),
    IntervalMs = timer:seconds(max(1, min(IdleExpiry, 60))),
    {ok, Timer} = timer:apply_interval(IntervalMs, ?MODULE, sweep, [Host, IdleExpiry]),
    persistent_term:put({?SWEEP, Host}, Timer),
    ok.

stop(Host) ->
    ejabberd_hooks:delete(join_room, Host, ?MODULE, join_room, 50),
    ejabberd_hooks:delete(leave_room, Host, ?MODULE, leave_room, 50),
    ejabberd_hooks:delete(remove_room, Host, ?MODULE, remove_room, 50),
    case persistent_term:get({?SWEEP, Host}, undefined) of
        undefined -> ok;
        Timer -> timer:cancel(Timer), persistent_term:erase({?SWEEP, Host})
    end,
    ok.

reload(Host, NewOpts, _OldOpts) ->
    stop(Host),
    start(Host, NewOpts).

depends(_Host, _Opts) -> [{mod_muc, hard}].

mod_opt_type(idle_expiry) -> econf:pos_int().

mod_options(_Host) -> [{idle_expiry, 30 * 86400}].

mod_doc() -> #{desc => <<"Parley's idle room expiry (server/xmpp/ejabberd/mod_parley_room_expiry.erl)">>}.

%% Both run in the room's process, for one occupant.
join_room(_ServerHost, Name, MucHost, _JID) ->
    mnesia:dirty_delete(parley_room_empty, {Name, MucHost}).

%% Someone left; if others are still in, the next sweep removes the record again.
leave_room(_ServerHost, Name, MucHost, _JID) ->
    mnesia:dirty_write(#parley_room_empty{room = {Name, MucHost}, since = erlang:system_time(second)}).

remove_room(_ServerHost, Name, MucHost) ->
    mnesia:dirty_delete(parley_room_empty, {Name, MucHost}).

sweep(ServerHost, IdleExpiry) ->
    Now = erlang:system_time(second),
    MucHosts = gen_mod:get_opt_hosts(gen_mod:get_module_opts(ServerHost, mod_muc)),
    [sweep_room({Name, MucHost}, Pid, Now, IdleExpiry)
     || MucHost <- MucHosts, {Name, _, Pid} <- mod_muc:get_online_rooms(MucHost), node(Pid) == node()],
    ok.

sweep_room(Room, Pid, Now, IdleExpiry) ->
    case {occupants(Pid), mnesia:dirty_read(parley_room_empty, Room)} of
        {unknown, _} ->
            ok;
        {0, []} ->
            mnesia:dirty_write(#parley_room_empty{room = Room, since = Now});
        {0, [#parley_room_empty{since = Since}]} when Now - Since >= IdleExpiry ->
            ?INFO_MSG("Destroying ~ts@~ts: nobody has been in it for ~B s", [element(1, Room), element(2, Room), IdleExpiry]),
            mod_muc_room:destroy(Pid, <<"The room expired unused">>);
        {0, _} ->
            ok;
        {_, [_]} ->
            mnesia:dirty_delete(parley_room_empty, Room);
        {_, []} ->
            ok
    end.

occupants(Pid) ->
    case catch mod_muc_room:get_state(Pid) of
        {ok, #state{users = Users}} -> maps:size(Users);
        _ -> unknown
    end.
