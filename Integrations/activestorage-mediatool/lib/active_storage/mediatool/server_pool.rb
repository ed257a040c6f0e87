# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # Servers of one kind, lent one to a caller: a thread waits only when `size` are busy, so one
    # slow blob does not hold up another thread's (Puma's threads drawing previews at once).
    class ServerPool
      def initialize(size:, &make)
        @size = size
        @make = make
        @lock = Mutex.new
        @free = ConditionVariable.new
        @all = []
        @idle = []
      end

      def answer(path)
        server = checkout
        begin
          server.answer(path)
        ensure
          checkin(server)
        end
      end

      def stop
        @lock.synchronize do
          @all.each(&:stop)
          @all.clear
          @idle.clear
        end
      end

      # After a fork: the parent's servers are its own.
      def abandon
        @lock = Mutex.new
        @free = ConditionVariable.new
        @all.each(&:abandon)
        @all.clear
        @idle.clear
      end

      private
        def checkout
          @lock.synchronize do
            loop do
              return @idle.pop unless @idle.empty?

              if @all.size < @size
                @all << @make.call
                return @all.last
              end
              @free.wait(@lock)
            end
          end
        end

        def checkin(server)
          @lock.synchronize do
            @idle.push(server) if @all.include?(server)
            @free.signal
          end
        end
    end
  end
end
