//! Clients that send requests and never read the answers.
//!
//! A client can pipeline requests on a connection and never read: every answer then waits in
//! the kernel's send buffer, which Linux grows up to `tcp_wmem`'s maximum (4 MB), and the
//! requests wait in the receive buffer (up to `tcp_rmem`'s, 6 MB). 200 such clients pinned 1.1 GB
//! of kernel socket memory in 15 s. So each accepted connection gets:
//! - **a cap on unsent bytes**: its send and receive buffers are set to [`SOCKET_BUFFER`] bytes
//!   (which also turns off their growth), so at most that many bytes of answers (doubled by the
//!   kernel for its bookkeeping) wait for a client that does not read, and hyper stops reading
//!   its requests meanwhile;
//! - **a write timeout**: an answer that cannot be written for [`WRITE_TIME`] (the send buffer
//!   stays full: the client is not reading) ends the connection ([`Stalled`]), which frees its
//!   buffers and its slot, and is counted in the report (`dropped for not reading`).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The send and receive buffer of each connection, in bytes (the kernel doubles it): a few
/// answers of the largest board.
pub const SOCKET_BUFFER: usize = 64 * 1024;

/// How long an answer may wait for its client to read, before the connection is dropped.
pub const WRITE_TIME: Duration = Duration::from_secs(10);

/// Sets a connection's send and receive buffers to [`SOCKET_BUFFER`]; a failure leaves the
/// system's (the write timeout still holds).
pub fn cap_buffers(stream: &tokio::net::TcpStream) {
    use nix::sys::socket::{setsockopt, sockopt};
    let _ = setsockopt(stream, sockopt::SndBuf, &SOCKET_BUFFER);
    let _ = setsockopt(stream, sockopt::RcvBuf, &SOCKET_BUFFER);
}

/// A connection whose writes fail once no byte could be written for `limit`: the client is not
/// reading. `dropped` counts the connections ended so.
pub struct Stalled<S> {
    inner: S,
    limit: Duration,
    waiting: Option<Pin<Box<tokio::time::Sleep>>>,
    dropped: Arc<AtomicU64>,
}

impl<S> Stalled<S> {
    /// `inner`, with writes that may wait at most `limit`.
    pub fn new(inner: S, limit: Duration, dropped: Arc<AtomicU64>) -> Self {
        Stalled {
            inner,
            limit,
            waiting: None,
            dropped,
        }
    }

    /// After a write that could not go on: pending until `limit` has passed since the first such
    /// write in a row, then an error (which ends the connection).
    fn wait<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let limit = self.limit;
        let sleep = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match sleep.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(()) => {
                self.waiting = None;
                self.dropped.fetch_add(1, Ordering::Relaxed);
                Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the client has not read its answers",
                )))
            }
        }
    }

    /// What a write gave: progress (or an error) resets the wait; no progress waits.
    fn after<T>(&mut self, cx: &mut Context<'_>, r: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        match r {
            Poll::Pending => self.wait(cx),
            done => {
                self.waiting = None;
                done
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Stalled<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Stalled<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.after(cx, r)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.after(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_flush(cx);
        this.after(cx, r)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.after(cx, r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[test]
    fn a_peer_that_never_reads_is_dropped_after_the_limit_and_one_that_reads_is_not() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let dropped = Arc::new(AtomicU64::new(0));
            // A pipe of 64 KB whose far end is never read: writes stall, then fail.
            let (near, _far) = tokio::io::duplex(64 * 1024);
            let mut s = Stalled::new(near, Duration::from_millis(50), dropped.clone());
            let chunk = vec![b'x'; 16 * 1024];
            let mut written = 0usize;
            let err = loop {
                match s.write(&chunk).await {
                    Ok(n) => written += n,
                    Err(e) => break e,
                }
            };
            assert_eq!(err.kind(), io::ErrorKind::TimedOut);
            assert_eq!(written, 64 * 1024, "everything the pipe held, then nothing");
            assert_eq!(dropped.load(Ordering::Relaxed), 1);
            // A far end that reads: a megabyte goes through a 1 KB pipe.
            let (near, mut far) = tokio::io::duplex(1024);
            let mut s = Stalled::new(near, Duration::from_millis(50), dropped.clone());
            let reader = tokio::spawn(async move {
                let mut sink = Vec::new();
                tokio::io::AsyncReadExt::read_to_end(&mut far, &mut sink)
                    .await
                    .map(|_| sink.len())
            });
            s.write_all(&vec![b'y'; 1 << 20]).await.unwrap();
            s.shutdown().await.unwrap();
            drop(s);
            assert_eq!(reader.await.unwrap().unwrap(), 1 << 20);
            assert_eq!(
                dropped.load(Ordering::Relaxed),
                1,
                "the reading peer was not dropped"
            );
        });
    }
}
